// The types of what the services return for the debugger views, under the names
// the frontend uses. They are the generated bindings (api/bindings.gen.ts,
// written from the Go services by `make check-bindings`), so a Go field that
// changes breaks the type check here. Every string that comes from a session
// is untrusted text.
import type * as G from '../api/bindings.gen';

export type Params = G.Params;

export type ThreadInfo = G.ThreadInfo;

export type Mark = G.Mark;

export type Over = G.Over;

// A step's marks and requests over budget, in columns (see mergeStep).
export type StepMarks = G.Marks;
export type StepOvers = G.Overs;

export type SourceCompaction = G.SourceCompaction;

export type CostSummary = G.CostSummary;

export type Calibration = G.Calibration;

export type ProviderView = G.ProviderView;

export type ReplayTimeline = G.Timeline;
export type ReplayStep = G.Step;

export type Removal = G.Removal;

export type BlockItem = G.BlockItem;

export type Item = G.Item;

export type EpisodeInfo = G.EpisodeInfo;

export type Part = G.Part;

export type DiffSummary = G.DiffSummary;

export type ContextView = G.Context;

// WireView mirrors app.WireView: a request of the log beside the same
// request as the recording proxy saw it.
export type WireView = G.WireView;
export type WirePart = G.WirePart;

export type SweepPoint = G.SweepPoint;

export type Curve = G.Curve;
// LiveCost mirrors debug.LiveCost: a run recorded under live eviction,
// as it cost and as it would have cost sent unmodified.
export type LiveCost = G.LiveCost;

export type GraphPoint = G.Point;

export type DrawnNode = G.DrawnNode;

export type DrawnEdge = G.DrawnEdge;

export type Drawing = G.Drawing;

export type Span = G.Span;

export type Fragment = G.Fragment;

export type Hit = G.Hit;

export type Hits = G.Hits;

export type Location = G.Location;

export type Appended = G.Appended;

// Discovery mirrors app.Discovery: whether the agents' session directories
// are watched, and which exist under the home directory.
export type Discovery = G.Discovery;

// ProxyState mirrors app.ProxyState: whether the recording proxy runs,
// its base URL, and how to point each agent at it.
export type ProxyState = G.ProxyState;

// Discovered mirrors app.Discovered, the payload of sessions:discovered.
export type Discovered = G.Discovered;

// SessionMemory mirrors app.SessionMemory: a thread's memory followed
// through one replay.
export type SessionMemory = G.SessionMemory;

// ItemSpan mirrors recall.Span: one stay of an item's content in the input;
// evicted is -1 when it stayed.
export type ItemSpan = G.RecallSpan;

// BlockPlace mirrors app.BlockPlace: a block's first request, its
// message's index in that context and its index in the message.
export type BlockPlace = G.BlockPlace;

// MemoryItem mirrors app.MemoryItem: one relation with where it came
// from and what the replay did to that content.
export type MemoryItem = G.MemoryItem;

export type RecallSummary = G.Summary;

export type RecalledPassage = G.RecalledPassage;

export type RecallShown = G.RecallShown;

// LookBackRecall mirrors app.LookBackRecall: a look-back with what each
// recall brought back.
export type LookBackRecall = G.LookBackRecall;

// MemoryVariant mirrors recall.Variant: the paper+memory replay at one
// budget against the paper policy (its recall report carries no events).
export type MemoryVariant = G.Variant;

// PassagePlace mirrors app.PassagePlace: where a session memory's passage
// was read from.
export type PassagePlace = G.PassagePlace;

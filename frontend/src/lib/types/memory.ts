// The types of what the services return for the memory views, under the names
// the frontend uses. They are the generated bindings (api/bindings.gen.ts,
// written from the Go services by `make check-bindings`), so a Go field that
// changes breaks the type check here. Every string that comes from a session
// is untrusted text.
import type * as G from '../api/bindings.gen';

export type Origin = G.Origin;

export type MemoryStats = G.Stats;

export type MemoryInfo = G.MemoryInfo;

export type KnowledgeNode = G.KnowledgeNode;

export type KnowledgeEdge = G.KnowledgeEdge;

export type KnowledgeView = G.KnowledgeView;

export type TimelineSession = G.Session;

export type Timeline = G.ExploreTimeline;

export type Passage = G.Passage;

export type End = G.End;

export type Relation = G.Relation;

export type Merge = G.Merge;

export type Item = G.ExploreItem;

export type Entity = G.Entity;

export type EntityMatch = G.Match;

export type Member = G.Member;

export type Cluster = G.Cluster;

export type Experience = G.Experience;

export type Question = G.Question;

export type Why = G.Why;

export type RetrievedItem = G.RetrievedItem;

export type Evidence = G.Evidence;

export type Retrieval = G.Retrieval;

export type Span = G.Span;

export type Fragment = G.Fragment;

export type Hit = G.SearchHit;

export type FacetCount = G.FacetCount;

export type TimeRange = G.TimeRange;

export type MemoryHits = G.MemoryHits;

export type MemorySearch = G.MemorySearch;

export type BuildState = G.BuildState;

export type LLMSettings = G.LLM;

export type QueueQuestion = G.AnnotateQuestion;

export type QueueEntry = G.QueueEntry;

export type TaskItem = G.TaskItem;

export type Task = G.Task;

export type CategoryAgreement = G.CategoryAgreement;

export type Annotation = G.Annotation;

export type ExportFile = G.ExportFile;

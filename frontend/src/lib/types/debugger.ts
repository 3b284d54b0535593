// Types of the values the Debugger and Live services return (package app,
// engine/debug, engine/cwl, app/graphs, search). Field names follow the Go
// json tags. Every string that comes from a session is untrusted text.
import type { KnowledgeView } from './memory';

export interface Params {
  thread: number;
  counter: string;
  episodes: string; // declared | inferred
  policy: string;
  budget: number;
}

export interface ThreadInfo {
  index: number;
  id: string;
  kind: string; // main | subagent
  parent?: string;
  parentIndex: number;
  title?: string;
  entries: number;
  requests: number;
  branches: number;
  depth: number;
}

export interface Mark {
  k: number;
  episode: number;
  name: string;
  level: number;
  freed?: number;
  step?: string;
}

export interface Over {
  k: number;
  over: number;
  why: string;
}

export interface SourceCompaction {
  next: number;
  line: number;
  tokensBefore: number;
}

export interface CostSummary {
  requests: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  extraCalls: number;
  peak: number;
  evictions: number;
  unreachable: number;
  lookBack: number;
  cachedRatio: number;
  cost: number;
  costUncached: number;
  priced: number;
  noPrice?: string[];
  models?: string[];
  priceSource: string;
}

export interface Calibration {
  counter: string;
  overhead: number;
  ratio: number;
  n: number;
  scored: number;
  medianError: number;
  p95Error: number;
}

export interface ProviderView {
  reported: number;
  calibrated: number;
  calibratedBefore: number;
  unlogged: number;
  ratio: number;
  basis: number;
}

export interface ReplayTimeline {
  policy: string;
  episodes: string;
  counter: string;
  budget: number;
  categories: string[];
  before: number[];
  after: number[];
  cached: number[];
  cats: number[][];
  context: number[];
  lines: number[];
  evictions: Mark[];
  restored: Mark[];
  unreachable: Over[];
  compactions: SourceCompaction[];
  cost: CostSummary;
  assumptions: string[];
  episodeCount: number;
  counterName: string;
  counterNote: string;
  reported: number[];
  reportedOutput: number[];
  unlogged: number[];
  calibration: Calibration;
  window: number;
}

export interface Removal {
  i: number;
  block: number;
  reason: string; // evicted | truncated | compacted
  request: number;
  episode: number;
  level?: number;
  step?: string;
}

export interface BlockItem {
  type: string; // text | thinking | tool_call | tool_result | image
  tool?: string;
  tokens: number;
  text: string;
  size: number;
  truncated?: boolean;
  isError?: boolean;
  state: string; // kept | evicted
  removal?: Removal;
}

export interface Item {
  i: number;
  role: string;
  origin?: string;
  line: number;
  episode: number;
  state: string; // kept | stripped | evicted
  tokens: number;
  kept: number;
  diff?: string; // added | changed | removed
  removal?: Removal;
  blocks: BlockItem[];
}

export interface EpisodeInfo {
  id: number;
  name: string;
  kind: string;
  inferred?: boolean;
  start: number;
  end: number;
  open: boolean;
  level: number;
  present: boolean;
}

export interface Part {
  group: string; // kind | tool | episode | provider
  name: string;
  tokens: number;
  full: number;
}

export interface DiffSummary {
  tokensBefore: number;
  added: number;
  changed: number;
  removed: number;
  removedElsewhere: number;
}

export interface ContextView {
  request: number;
  ctx: number;
  tokens: number;
  before: number;
  summary?: number;
  prologue: number;
  items: Item[];
  episodes: EpisodeInfo[];
  parts: Part[];
  diff: DiffSummary;
  evictions: Mark[];
  unreachable?: string;
  provider: ProviderView;
}

export interface SweepPoint {
  budget: number;
  input: number;
  peak: number;
  cachedRatio: number;
  cost: number;
  evictions: number;
  unreachable: number;
  lookBack: number;
}

export interface Curve {
  policy: string;
  points: SweepPoint[];
}

export interface GraphPoint {
  x: number;
  y: number;
}

export interface DrawnNode {
  id: string;
  label: string;
  x: number;
  y: number;
  w: number;
  h: number;
  attrs: Record<string, string>;
}

export interface DrawnEdge {
  from: string;
  to: string;
  points: GraphPoint[];
  spline?: boolean;
  future?: boolean;
}

export interface Drawing {
  width: number;
  height: number;
  nodes: DrawnNode[];
  edges: DrawnEdge[];
}

export interface Span {
  start: number;
  end: number;
}

export interface Fragment {
  text: string;
  marks: Span[];
  start: number;
}

export interface Hit {
  id: string;
  score: number;
  kind: string;
  session?: string;
  thread?: string;
  entry?: string;
  line?: number;
  role?: string;
  tool?: string;
  fragments: Fragment[];
  threadIndex: number;
  entryIndex: number;
  request: number;
  message: number;
}

export interface Hits {
  total: number;
  hits: Hit[];
}

export interface Location {
  request: number;
  message: number;
}

export interface Appended {
  key: string;
  requests: number;
  entries: number;
  revision: number;
}

// Discovery mirrors app.Discovery: whether the agents' session directories
// are watched, and which exist under the home directory.
export interface Discovery {
  on: boolean;
  home: string;
  known: string[];
  dirs: string[];
}

// Discovered mirrors app.Discovered, the payload of sessions:discovered.
export interface Discovered {
  keys: string[];
}

// SessionMemory mirrors app.SessionMemory: a thread's memory followed
// through one replay.
export interface SessionMemory {
  policy: string;
  budget: number;
  requests: number;
  recallBudget: number;
  graph: KnowledgeView;
  items: MemoryItem[];
  lookBacks: LookBackRecall[];
  skipped: number;
  memory: RecallSummary;
  bm25: RecallSummary;
}

// ItemSpan mirrors recall.Span: one stay of an item's content in the input;
// evicted is -1 when it stayed.
export interface ItemSpan {
  entered: number;
  evicted: number;
  level: number;
}

// BlockPlace mirrors app.BlockPlace: a block's first request, its
// message's index in that context and its index in the message.
export interface BlockPlace {
  request: number;
  message: number;
  block: number;
}

// MemoryItem mirrors app.MemoryItem: one relation with where it came
// from and what the replay did to that content.
export interface MemoryItem {
  relation: string;
  spans: ItemSpan[];
  recalled: number[];
  episode?: string;
  subject: string;
  predicate: string;
  object: string;
  time?: string;
  condition?: string;
  where: BlockPlace;
  places: BlockPlace[];
}

export interface RecallSummary {
  recovered: number;
  rate: number;
  coverage: number;
  tokens: number;
}

export interface RecalledPassage {
  id: string;
  text: string;
  target: boolean;
  where: BlockPlace;
}

export interface RecallShown {
  recovered: boolean;
  coverage: number;
  tokens: number;
  passages: RecalledPassage[];
}

// LookBackRecall mirrors app.LookBackRecall: a look-back with what each
// recall brought back.
export interface LookBackRecall {
  request: number;
  kind: 'read' | 'search' | 'run';
  path: string;
  query: string;
  memory: RecallShown;
  bm25: RecallShown;
  target: { id: string; where: BlockPlace }[];
}

// MemoryVariant mirrors recall.Variant: the paper+memory replay at one
// budget against the paper policy (its recall report carries no events).
export interface MemoryVariant {
  policy: string;
  budget: number;
  recallBudget: number;
  paperLookBacks: number;
  reservedLookBacks: number;
  avoided: number;
  lookBacks: number;
  tokensAdded: number;
}

// PassagePlace mirrors app.PassagePlace: where a session memory's passage
// was read from.
export interface PassagePlace extends BlockPlace {
  thread: number;
}

// Types of the Memory and Annotations services (app/memory*.go,
// app/annotations.go, app/graphs/knowledge_view.go, engine/memory/explore).

export interface Origin {
  kind: string; // locomo, session or memweaver
  path?: string;
  sample: number;
  session?: string;
}

export interface MemoryStats {
  passages: number;
  entities: number;
  relations: number;
  contains: number;
  clusters: number;
  clustered: number;
  experiences: number;
  pending: number;
  merges: number;
}

export interface MemoryInfo {
  name: string;
  kind: string;
  source: string;
  from: Origin;
  speakers: string[];
  stats: MemoryStats;
  questions: number;
}

export interface KnowledgeNode {
  id: string;
  label: string;
  x: number;
  y: number;
  degree: number;
  origin: string;
  aliases?: string;
  hop: number;
}

export interface KnowledgeEdge {
  id: string;
  from: string;
  to: string;
  label: string;
  time?: string;
  gran?: string;
  start?: number; // Unix ms of the normalized time's first instant
  condition?: string;
  origin: string;
  session?: number;
}

export interface KnowledgeView {
  center: string;
  hops: number;
  nodes: KnowledgeNode[];
  edges: KnowledgeEdge[];
  total: number;
  truncated: boolean;
}

export interface TimelineSession {
  n: number;
  stamp: string;
  time?: string;
  passages: number;
}

export interface Timeline {
  sessions: TimelineSession[];
  byGran: Record<string, number>;
  first?: string;
  last?: string;
}

export interface Passage {
  id: string;
  session: number;
  speaker: string;
  stamp: string;
  text: string;
}

export interface End {
  id: string;
  name: string;
}

export interface Relation {
  id: string;
  subject: End;
  predicate: string;
  object: End;
  time: string;
  gran: string;
  condition: string;
  origin: string;
  session: number;
  passages: Passage[];
}

export interface Merge {
  id: string;
  drop: End;
  reason: string;
  undone: boolean;
  undoable: boolean;
}

export interface Item {
  id: string;
  type: string;
  content: string;
  cluster: string;
  sources: Passage[];
}

export interface Entity {
  id: string;
  name: string;
  aliases: string[];
  origin: string;
  relations: Relation[];
  merges: Merge[];
  experiences: Item[];
  mentions: number;
}

export interface EntityMatch {
  id: string;
  name: string;
  aliases: string[];
}

export interface Member {
  passage: Passage;
  rule?: string;
  why?: string;
  sim?: number;
  tries?: number;
}

export interface Cluster {
  id: string;
  centerText: string;
  label: string;
  members: Member[];
  items: Item[];
  buffered: number;
}

export interface Experience {
  clusters: Cluster[];
  pending: Member[];
  routed: boolean;
}

export interface Question {
  index: number;
  category: number;
  kind: string;
  question: string;
  answer: string;
  evidence: string[];
}

export interface Why {
  channel: string;
  score: number;
  dense: number;
  lexical: number;
  hop?: number;
  seed?: string;
  via?: string;
  origin?: string;
  session?: number;
}

export interface RetrievedItem {
  kind: string;
  id: string;
  text: string;
  passages?: string[];
  why: Why;
  provenance: Passage[];
}

export interface Evidence {
  passage: Passage;
  hit: boolean;
  /** Only items drawn from the turn are in the context, not its words. */
  pointed: boolean;
  via: string[];
}

export interface Retrieval {
  question: string;
  index: number;
  mode: string;
  items: RetrievedItem[];
  context: string;
  tokens: number;
  turns: string[];
  gold: Evidence[];
  answer: string;
  recall: number;
  millis: number;
}

export interface Span {
  start: number;
  end: number;
}

export interface Fragment {
  text: string;
  marks: Span[]; // byte offsets into text (UTF-8)
  start: number;
}

export interface Hit {
  id: string;
  score: number;
  kind: string;
  entry?: string;
  speaker?: string;
  set?: string;
  dialogSession?: string;
  time?: string;
  fragments: Fragment[];
}

export interface FacetCount {
  term: string;
  count: number;
}

export interface TimeRange {
  name: string;
  start: string;
  end: string;
}

export interface MemoryHits {
  total: number;
  hits: Hit[];
  facets: Record<string, FacetCount[]>;
  months: TimeRange[] | null;
  millis: number;
}

export interface MemorySearch {
  set: string;
  query: string;
  syntax: boolean;
  kind: string;
  speaker: string;
  session: string;
  after: number;
  before: number;
  from: number;
  size: number;
}

export interface BuildState {
  job: number;
  set: string;
  stage: string; // building, saving, done, failed, cancelled
  done: number;
  total: number;
  error?: string;
}

export interface LLMSettings {
  url: string;
  model: string;
  keySet: boolean;
}

export interface QueueQuestion {
  id: string;
  index: number;
  text?: string;
}

export interface QueueEntry extends QueueQuestion {
  text: string;
  category?: string;
  items: number;
  judged: number;
  sufficient: boolean | null;
}

export interface TaskItem extends RetrievedItem {
  key: string;
  helpful: boolean | null;
  notes: string;
}

export interface Task {
  question: QueueQuestion;
  text: string;
  category?: string;
  annotator: string;
  items: TaskItem[];
  tokens: number;
  sufficient: boolean | null;
  notes: string;
}

export interface CategoryAgreement {
  category: string;
  annotators: string[];
  method: string;
  raters: number;
  units: number;
  observed: number;
  expected: number;
  kappa: number;
  defined: boolean;
  error?: string;
}

export interface Annotation {
  id: number;
  scope: string;
  question: string;
  item: string;
  annotator: string;
  helpful?: boolean;
  sufficient?: boolean;
  notes: string;
  time: string;
}

export interface ExportFile {
  name: string;
  type: string;
  text: string;
  rows: number;
}

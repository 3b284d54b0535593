// Typed calls to the Memory and Annotations services. Only ids, names,
// numbers, paths and text the user typed travel to Go: never memory
// content.
import { backend } from '../backend';
import { call } from './call';
import type {
  Annotation, BuildState, CategoryAgreement, Entity, EntityMatch, Experience, ExportFile, KnowledgeView, LLMSettings,
  MemoryHits, MemoryInfo, MemorySearch, Passage, QueueEntry, Question, Retrieval, Task, Timeline,
} from '../types/memory';

export const memoryApi = {
  list: () => call<MemoryInfo[]>('Memory', 'List'),
  info: (set: string) => call<MemoryInfo>('Memory', 'Info', set),
  remove: (set: string) => call<void>('Memory', 'Delete', set),
  graph: (set: string, center = '', hops = 1, limit = 0) => call<KnowledgeView>('Memory', 'Graph', { set, center, hops, limit }),
  timeline: (set: string) => call<Timeline>('Memory', 'Timeline', set),
  entity: (set: string, id: string) => call<Entity>('Memory', 'Entity', set, id),
  findEntities: (set: string, text: string, limit = 20) => call<EntityMatch[]>('Memory', 'FindEntities', set, text, limit),
  merge: (set: string, keep: string, drop: string) => call<Entity>('Memory', 'Merge', set, keep, drop),
  undo: (set: string, mergeId: string) => call<void>('Memory', 'Undo', set, mergeId),
  experiences: (set: string) => call<Experience>('Memory', 'Experiences', set),
  passage: (set: string, id: string) => call<Passage>('Memory', 'Passage', set, id),
  questions: (set: string) => call<Question[]>('Memory', 'Questions', set),
  retrieve: (set: string, question: string, index: number, mode: string, budget: number) =>
    call<Retrieval>('Memory', 'Retrieve', { set, question, index, mode, budget }),
  search: (r: MemorySearch) => call<MemoryHits>('Memory', 'Search', r),
  build: (r: { source: string; path: string; sample: number; session: string; extractor: string }) => call<BuildState>('Memory', 'Build', r),
  cancel: (job: number) => call<void>('Memory', 'Cancel', job),
  job: (job: number) => call<BuildState>('Memory', 'Job', job),
  importExport: (r: { graph: string; clusters: string; locomo: string; sample: number }) => call<MemoryInfo>('Memory', 'Import', r),
  llm: () => call<LLMSettings>('Memory', 'LLMSettings'),
  setLLM: (url: string, model: string) => call<LLMSettings>('Memory', 'SetLLMSettings', url, model),
  onBuild: (fn: (s: BuildState) => void) => backend.on('memory:build', (d) => fn(d as BuildState)),
};

export const annotateApi = {
  annotator: () => call<string>('Annotations', 'Annotator'),
  setAnnotator: (name: string) => call<string>('Annotations', 'SetAnnotator', name),
  queue: (set: string) => call<QueueEntry[]>('Annotations', 'Queue', set),
  addLoCoMo: (set: string, indexes: number[]) => call<QueueEntry[]>('Annotations', 'AddLoCoMo', set, indexes),
  addCustom: (set: string, text: string) => call<QueueEntry[]>('Annotations', 'AddCustom', set, text),
  remove: (set: string, id: string) => call<QueueEntry[]>('Annotations', 'Remove', set, id),
  task: (set: string, question: string) => call<Task>('Annotations', 'Task', set, question),
  mark: (m: { set: string; question: string; item: string; helpful: boolean | null; sufficient: boolean | null; notes: string }) =>
    call<Annotation>('Annotations', 'Mark', m),
  marks: (set: string) => call<Annotation[]>('Annotations', 'Marks', set),
  agreement: (set: string) => call<CategoryAgreement[]>('Annotations', 'Agreement', set),
  exportFile: (set: string, format: 'jsonl' | 'csv') => call<ExportFile>('Annotations', 'Export', set, format),
};

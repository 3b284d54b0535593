// The Memory and Annotations services under the names the views use.
// Every call is a generated binding (bindings.gen.ts), so its arguments
// and reply are the Go method's. Only ids, names, numbers, paths and text
// the user typed travel to Go: never memory content.
import { backend } from '../backend';
import { Annotations, Memory } from './bindings.gen';
import type { BuildState } from '../types/memory';

export const memoryApi = {
  list: Memory.List,
  info: Memory.Info,
  remove: Memory.Delete,
  graph: (set: string, center = '', hops = 1, limit = 0) => Memory.Graph({ set, center, hops, limit }),
  timeline: Memory.Timeline,
  entity: Memory.Entity,
  findEntities: (set: string, text: string, limit = 20) => Memory.FindEntities(set, text, limit),
  merge: Memory.Merge,
  undo: Memory.Undo,
  experiences: Memory.Experiences,
  passage: Memory.Passage,
  questions: Memory.Questions,
  retrieve: (set: string, question: string, index: number, mode: string, budget: number) => Memory.Retrieve({ set, question, index, mode, budget }),
  search: Memory.Search,
  build: Memory.Build,
  cancel: Memory.Cancel,
  job: Memory.Job,
  importExport: Memory.Import,
  llm: Memory.LLMSettings,
  setLLM: Memory.SetLLMSettings,
  onBuild: (fn: (s: BuildState) => void) => backend.on('memory:build', (d) => fn(d as BuildState)),
};

export const annotateApi = {
  annotator: Annotations.Annotator,
  setAnnotator: Annotations.SetAnnotator,
  queue: Annotations.Queue,
  addLoCoMo: Annotations.AddLoCoMo,
  addCustom: Annotations.AddCustom,
  remove: Annotations.Remove,
  task: Annotations.Task,
  mark: Annotations.Mark,
  marks: Annotations.Marks,
  agreement: Annotations.Agreement,
  exportFile: (set: string, format: 'jsonl' | 'csv') => Annotations.Export(set, format),
};

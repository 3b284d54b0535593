// Types of the values the Go services return (package app and
// engine/report). Field names follow the Go json tags.

export interface Environment {
  desktop: boolean;
  dialogs: boolean;
  upload: boolean;
}

export interface SessionInfo {
  key: string;
  id: string;
  title: string;
  format: string;
  agent: string;
  source: string;
  /** The session's part of its source file when the file holds several and says how they divide it, else the file's size. */
  bytes: number;
  /** How many sessions the source file holds. */
  sourceSessions: number;
  started: string;
  updated: string;
  threads: number;
  entries: number;
  messages: number;
  toolCalls: number;
  requests: number;
  compactions: number;
  errors: number;
  warnings: number;
  diagnostics: string[];
  demo: boolean;
  peak: number;
  tokens: number;
  live: boolean;
  seen: number;
  lastActivity: string;
}

export interface Point {
  request: number;
  line: number;
  entryId: string;
  time: string;
  tokens: number;
  breakdown: number[];
  messages: number;
  reported: number;
  afterCompaction?: boolean;
}

export interface Compaction {
  line: number;
  entryId: string;
  time: string;
  tokensBefore: number;
  nextRequest: number;
  thread: string;
  summary: string;
}

export interface TimelineView {
  sessionId: string;
  counter: string;
  categories: string[];
  points: Point[];
  compactions: Compaction[];
}

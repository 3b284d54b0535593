// Types of the values the Sessions and UI services return (package app).
// Field names follow the Go json tags.

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
  bytes: number;
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

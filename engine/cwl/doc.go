// Package cwl implements CWL (Context Window Lifecycle): episodes that an
// agent marks with the delimiter tool, and the policies that evict their
// content when a token budget is exceeded.
package cwl

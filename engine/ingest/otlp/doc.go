// Package otlp reads agent sessions out of OpenTelemetry traces and logs
// that follow the GenAI semantic conventions: each model call is a span
// (gen_ai.operation.name "chat", "text_completion" or "generate_content")
// with its model, provider, token usage and, when the instrumentation
// records content, its messages; each tool run is an "execute_tool" span.
//
// # The file format
//
// OTLP/JSON lines: each line one ExportTraceServiceRequest or
// ExportLogsServiceRequest in OTLP's JSON encoding, as the OpenTelemetry
// Collector's file exporter writes them and as ctxscope's own OTLP/HTTP
// receiver spools what it is sent (see [Split]). A whole file holding one
// pretty-printed request reads too.
//
// # Sessions
//
// Spans are grouped into sessions by gen_ai.conversation.id (else
// session.id, else the conversation of an enclosing span, else the trace),
// and ordered by start time. A model call's input repeats the
// conversation so far: the messages it adds to what earlier calls sent and
// answered become the session's new entries, then its output, which
// carries the call's usage. Message content is read from every form
// instrumentations write:
//
//   - gen_ai.input.messages, gen_ai.output.messages and
//     gen_ai.system_instructions (semantic conventions 1.37 and later), as
//     a JSON string or structured, on the span or on a
//     gen_ai.client.inference.operation.details event;
//   - the message events of earlier versions (gen_ai.system.message,
//     gen_ai.user.message, gen_ai.assistant.message, gen_ai.tool.message,
//     gen_ai.choice), as span events or as log records tied to the span,
//     with their content in attributes or in the body;
//   - OpenLLMetry's indexed attributes (gen_ai.prompt.N.role,
//     gen_ai.prompt.N.content, gen_ai.completion.N.…).
//
// A tool call whose result no later model call sent takes the result its
// execute_tool span recorded (gen_ai.tool.call.result).
//
// # Usage
//
// gen_ai.usage.input_tokens counts the whole prompt, cached tokens
// included; the session model keeps uncached, cache-read
// (gen_ai.usage.cache_read.input_tokens) and cache-write
// (gen_ai.usage.cache_creation.input_tokens) tokens apart, so the uncached
// count is the input less both. gen_ai.usage.output_tokens and
// gen_ai.usage.reasoning.output_tokens are the output and its reasoning.
package otlp

// A tool-using conversation through the official `openai` client,
// instrumented by OpenTelemetry and exported over OTLP/HTTP (protobuf):
// the client the OTLP receiver's tests run (app/serve). Configured by the
// environment: MODEL_BASE_URL (a Chat Completions server), PROMPT, the
// instrumentation to use (INSTRUMENTATION: "otel" for
// @opentelemetry/instrumentation-openai, which records messages as log
// events, or "traceloop" for @traceloop/instrumentation-openai, which
// records them on spans), and the standard OTEL_* variables.
// The tool it offers, read, returns the text of FILES (a JSON object of
// path to text).
'use strict';

const { NodeSDK } = require('@opentelemetry/sdk-node');

function instrumentation() {
  switch (process.env.INSTRUMENTATION) {
    case 'otel': {
      const { OpenAIInstrumentation } = require('@opentelemetry/instrumentation-openai');
      return new OpenAIInstrumentation({ captureMessageContent: true });
    }
    case 'traceloop': {
      const { OpenAIInstrumentation } = require('@traceloop/instrumentation-openai');
      return new OpenAIInstrumentation({ traceContent: true });
    }
  }
  throw new Error(`INSTRUMENTATION=${process.env.INSTRUMENTATION}: want otel or traceloop`);
}

async function main() {
  // The exporters are the environment's (OTEL_TRACES_EXPORTER,
  // OTEL_LOGS_EXPORTER, OTEL_EXPORTER_OTLP_*), as a deployment sets them.
  const sdk = new NodeSDK({ serviceName: 'ctxscope-openai-client', instrumentations: [instrumentation()] });
  sdk.start();
  const OpenAI = require('openai'); // after the SDK, which patches it as it loads
  const { trace } = require('@opentelemetry/api');
  const client = new OpenAI({ baseURL: process.env.MODEL_BASE_URL, apiKey: 'test-key' });
  const files = JSON.parse(process.env.FILES || '{}');
  const tools = [{ type: 'function', function: { name: 'read', description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }];
  const messages = [{ role: 'system', content: 'You are a careful coding agent.' }, { role: 'user', content: process.env.PROMPT }];
  // One task, one trace: the agent's span holds each model call's.
  await trace.getTracer('ctxscope-openai-client').startActiveSpan('invoke_agent coder', async (agent) => {
    agent.setAttribute('gen_ai.operation.name', 'invoke_agent');
    try {
      await converse(client, messages, tools, files);
    } finally {
      agent.end();
    }
  });
  await sdk.shutdown(); // flushes every span and log record
}

// converse plays the conversation until the model answers without a call.
async function converse(client, messages, tools, files) {
  for (let turn = 0; turn < 20; turn++) {
    const res = await client.chat.completions.create({ model: 'gpt-4.1', messages, tools });
    const msg = res.choices[0].message;
    messages.push(msg);
    if (!msg.tool_calls || msg.tool_calls.length === 0) break;
    for (const call of msg.tool_calls) {
      const { path } = JSON.parse(call.function.arguments);
      messages.push({ role: 'tool', tool_call_id: call.id, content: files[path] ?? `no file ${path}` });
    }
  }
}

main().catch((err) => { console.error(err); process.exit(1); });

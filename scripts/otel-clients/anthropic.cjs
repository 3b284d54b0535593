// A tool-using conversation through the official Anthropic TypeScript SDK,
// whose own OpenTelemetry spans (gen_ai.input.messages,
// gen_ai.output.messages) the OpenTelemetry Node SDK exports over
// OTLP/HTTP: a client the OTLP receiver's tests run (app/serve).
// Configured by the environment: MODEL_BASE_URL (a Messages API server),
// PROMPT, FILES (a JSON object of path to text, what the read tool
// returns), ANTHROPIC_OPEN_TELEMETRY_TRACES_CONTENT_MODE=content for the
// messages to be recorded, and the standard OTEL_* variables.
'use strict';

const { NodeSDK } = require('@opentelemetry/sdk-node');
const { trace } = require('@opentelemetry/api');

async function main() {
  const sdk = new NodeSDK({ serviceName: 'ctxscope-anthropic-client' });
  sdk.start();
  const Anthropic = require('@anthropic-ai/sdk');
  const client = new Anthropic({ baseURL: process.env.MODEL_BASE_URL, apiKey: 'test-key' });
  const files = JSON.parse(process.env.FILES || '{}');
  const tools = [{ name: 'read', description: 'Read a file.',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
  const messages = [{ role: 'user', content: process.env.PROMPT }];
  // One task, one trace: the agent's span holds each model call's.
  await trace.getTracer('ctxscope-anthropic-client').startActiveSpan('invoke_agent coder', async (agent) => {
    agent.setAttribute('gen_ai.operation.name', 'invoke_agent');
    try {
      for (let turn = 0; turn < 20; turn++) {
        const res = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024,
          system: 'You are a careful coding agent.', messages, tools });
        messages.push({ role: 'assistant', content: res.content });
        const calls = res.content.filter((b) => b.type === 'tool_use');
        if (calls.length === 0) break;
        messages.push({ role: 'user', content: calls.map((c) => ({ type: 'tool_result', tool_use_id: c.id,
          content: files[c.input.path] ?? `no file ${c.input.path}` })) });
      }
    } finally {
      agent.end();
    }
  });
  await sdk.shutdown(); // flushes every span
}

main().catch((err) => { console.error(err); process.exit(1); });

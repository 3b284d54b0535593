// A tool-using conversation through the Vercel AI SDK (generateText with a
// tool, over Chat Completions), its telemetry registered with
// @ai-sdk/otel and exported by the OpenTelemetry Node SDK over OTLP/HTTP:
// a client the OTLP receiver's tests run (app/serve). Configured by the
// environment: MODEL_BASE_URL, PROMPT, FILES (a JSON object of path to
// text, what the read tool returns) and the standard OTEL_* variables.
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OpenTelemetry } from '@ai-sdk/otel';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, registerTelemetry, stepCountIs, tool } from 'ai';
import { z } from 'zod';

const sdk = new NodeSDK({ serviceName: 'ctxscope-ai-sdk-client' });
sdk.start();
registerTelemetry(new OpenTelemetry());

const files = JSON.parse(process.env.FILES || '{}');
const provider = createOpenAI({ baseURL: process.env.MODEL_BASE_URL, apiKey: 'test-key' });
const read = tool({
  description: 'Read a file.',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => files[path] ?? `no file ${path}`,
});

try {
  await generateText({
    model: provider.chat('gpt-4.1'),
    system: 'You are a careful coding agent.',
    prompt: process.env.PROMPT,
    tools: { read },
    stopWhen: stepCountIs(10),
    telemetry: { isEnabled: true, functionId: 'coder' },
  });
} finally {
  await sdk.shutdown(); // flushes every span
}

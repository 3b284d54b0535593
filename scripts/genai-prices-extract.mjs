// Prints the provider and model price data embedded in @pydantic/genai-prices.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
const src = fs.readFileSync(process.argv[2], 'utf8');
if (!src.startsWith('const E = [')) throw new Error('the package no longer starts with its data array');
const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'genai-prices-')), 'index.mjs');
fs.writeFileSync(tmp, 'globalThis.__genaiPrices = ' + src.slice('const E = '.length).replace(/^(\[[\s\S]*?\n\])/, '$1; const E = globalThis.__genaiPrices'));
await import(pathToFileURL(tmp).href);
process.stdout.write(JSON.stringify(globalThis.__genaiPrices));

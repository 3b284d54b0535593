// Files the memory end-to-end tests build memories from: a LoCoMo-shaped
// conversation and a MemWeaver-shaped export whose text is the HTML/JS
// payload suite, and a MemWeaver-shaped export of 10,000 entities for the
// performance measurements. The big graph is generated (no public memory
// has 10,000 entities) and says so in its passages.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The payload suite: script tags, event-handler attributes, javascript:
// links, SVG with scripts, markdown links. Each sets window.__pwned if it
// ever runs.
export const payloads = [
  '<script>window.__pwned="script"</script>',
  '<img src=x onerror="window.__pwned=\'img\'">',
  '<a href="javascript:window.__pwned=\'link\'">click</a>',
  '<svg onload="window.__pwned=\'svg\'"><script>window.__pwned="svg"</script></svg>',
  '[a markdown link](javascript:window.__pwned="md")',
  '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
];

// Markers that must never appear in a request to a bound Go method.
export const markers = ['__pwned', '<script', 'onerror', 'javascript:', '<svg', '<iframe'];

function tmp() {
  return mkdtempSync(join(tmpdir(), 'ctxscope-memui-'));
}

// payloadLoCoMo writes one conversation whose turns and question carry
// the payloads, around words the offline extractor reads.
export function payloadLoCoMo() {
  const turns = payloads.map((p, i) => ({
    speaker: i % 2 ? 'Bob' : 'Ann', dia_id: `D1:${i + 1}`,
    text: `Ann loves ${p} pottery and Bob went to ${p} yesterday.`,
  }));
  const conv = [{
    sample_id: 'conv-payload',
    conversation: { speaker_a: 'Ann', speaker_b: 'Bob', session_1_date_time: '1:56 pm on 8 May, 2023', session_1: turns },
    qa: [{ question: `What did Ann love ${payloads[0]}?`, answer: payloads[1], evidence: ['D1:1'], category: 4 }],
  }];
  const path = join(tmp(), 'payload-locomo.json');
  writeFileSync(path, JSON.stringify(conv));
  return path;
}

// payloadExport writes a MemWeaver export whose entity names, predicates,
// conditions, passages, cluster themes and experience items are payloads.
export function payloadExport() {
  const dir = tmp();
  const entities = [];
  const relations = [];
  payloads.forEach((p, i) => {
    entities.push({ id: `p${i}`, name: `passage ${p}`, metadata: { node_type: 'passage', qa_id: `D1:${i + 1}`, speaker: p, timestamp: '1:56 pm on 8 May, 2023' } });
    entities.push({ id: `e${i}`, name: `entity ${p}`, metadata: { node_type: 'entity', source: 'dialog' } });
  });
  payloads.forEach((p, i) => {
    const j = (i + 1) % payloads.length;
    relations.push({ id: `r${i}`, source: `e${i}`, target: `e${j}`, relation_type: `likes ${p}`,
      metadata: { time: '7 May, 2023', condition: `when ${p}`, session_id: 1, qa_id: `D1:${i + 1}`, passage_id: `p${i}` } });
    relations.push({ id: `c${i}`, source: `p${i}`, target: `e${i}`, relation_type: 'contains', metadata: {} });
  });
  const clusters = { clusters: [{
    id: 'k1', center_text: `theme ${payloads[0]}`, metadata: { consistency: { label: payloads[2] } },
    QAList: payloads.map((p, i) => ({ id: `D1:${i + 1}`, speaker: 'Ann', timestamp: '', question: p })),
    ExpList: payloads.map((p, i) => ({ id: `x${i}`, type: 'fact', content: `item ${p}`, source_qa_ids: [`D1:${i + 1}`] })),
    add_buffer_qa_ids: [],
  }] };
  writeFileSync(join(dir, 'kg_sample_5.json'), JSON.stringify({ sample_index: 5, entities, relations }));
  writeFileSync(join(dir, 'clusters_sample_5.json'), JSON.stringify(clusters));
  return { graph: join(dir, 'kg_sample_5.json'), clusters: join(dir, 'clusters_sample_5.json') };
}

// bigExport writes a generated MemWeaver-shaped export: n entities, about
// 2n relations by preferential attachment (a scale-free graph, as
// knowledge graphs are), 30 dated sessions of 10 passages, times on 60%
// of the relations. Deterministic.
export function bigExport(n = 10000) {
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const entities = [];
  const relations = [];
  const sessions = 30;
  const day0 = Date.UTC(2023, 0, 8);
  const stamp = (s) => {
    const d = new Date(day0 + (s - 1) * 11 * 86400000);
    return `1:56 pm on ${d.getUTCDate()} ${d.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })}, ${d.getUTCFullYear()}`;
  };
  for (let s = 1; s <= sessions; s++) {
    for (let t = 1; t <= 10; t++) {
      entities.push({ id: `p${s}-${t}`, name: `Generated passage ${t} of session ${s} (a synthetic 10,000-entity graph for the performance test).`,
        metadata: { node_type: 'passage', qa_id: `D${s}:${t}`, speaker: t % 2 ? 'Ann' : 'Bob', timestamp: stamp(s) } });
    }
  }
  const ends = [];
  for (let i = 0; i < n; i++) {
    entities.push({ id: `e${i}`, name: `entity ${i}`, metadata: { node_type: 'entity', source: 'dialog' } });
    const links = i === 0 ? 0 : i === 1 ? 1 : 2;
    for (let k = 0; k < links; k++) {
      const j = ends.length ? ends[Math.floor(rand() * ends.length)] : 0;
      const s = 1 + Math.floor((i / n) * sessions * 0.999);
      const timed = rand() < 0.6;
      const d = new Date(day0 + (s - 1) * 11 * 86400000 - Math.floor(rand() * 10) * 86400000);
      const time = timed ? `${d.getUTCDate()} ${d.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })}, ${d.getUTCFullYear()}` : '';
      relations.push({ id: `r${relations.length}`, source: `e${i}`, target: `e${j}`, relation_type: ['knows', 'likes', 'went to', 'has'][relations.length % 4],
        metadata: { time, condition: '', session_id: s, qa_id: `D${s}:1`, passage_id: `p${s}-1` } });
      ends.push(i, j);
    }
  }
  const dir = tmp();
  writeFileSync(join(dir, 'kg_sample_7.json'), JSON.stringify({ sample_index: 7, entities, relations }));
  writeFileSync(join(dir, 'clusters_sample_7.json'), JSON.stringify({ clusters: [] }));
  return { graph: join(dir, 'kg_sample_7.json'), clusters: join(dir, 'clusters_sample_7.json'), entities: n, relations: relations.length };
}

// cohen computes Cohen's kappa of two label lists, independently of the
// app: po = agreement, pe = sum over labels of the product of the two
// raters' label frequencies.
export function cohen(a, b) {
  const n = a.length;
  const po = a.filter((x, i) => x === b[i]).length / n;
  let pe = 0;
  for (const l of new Set([...a, ...b])) pe += (a.filter((x) => x === l).length / n) * (b.filter((x) => x === l).length / n);
  return (po - pe) / (1 - pe);
}

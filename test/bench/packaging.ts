// The packaging rows: `vsce package` (which builds dist/ for production), the VSIX read without unzip (its size,
// its parts, vsce's warnings), the activation bundle's size and that it leaves the API layer to dist/api.js.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { newRunDir } from '../harness/codeServer';
import { REPO, log, timed } from '../harness/util';
import { BUDGET } from './budgets';
import { runProcess } from './processes';
import type { Table } from './table';
import { vsixRows } from './vsixParts';

interface ZipEntry {
  name: string;
  size: number;
  compressed: number;
  method: number;
  offset: number;
}

function zipEntries(file: string): ZipEntry[] {
  const buf = fs.readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${i}`);
    const compressed = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    entries.push({
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
      size,
      compressed,
      method: buf.readUInt16LE(p + 10),
      offset: buf.readUInt32LE(p + 42),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function zipContent(file: string, entry: ZipEntry): Buffer {
  const buf = fs.readFileSync(file);
  const start = entry.offset + 30 + buf.readUInt16LE(entry.offset + 26) + buf.readUInt16LE(entry.offset + 28);
  const data = buf.subarray(start, start + entry.compressed);
  return entry.method === 0 ? data : zlib.inflateRawSync(data);
}

/** The development build ends with a source-map comment; the production build (what vsce ships) has none. */
export const isProduction = (source: string) => !source.includes('//# sourceMappingURL=');

export async function vsixAndBundle(table: Table, raw: Record<string, unknown>): Promise<void> {
  const out = path.join(newRunDir('bench-vsix'), 'tensorpool.vsix');
  const vsce = path.join(REPO, 'node_modules', '.bin', 'vsce');
  const pack = () =>
    timed('vsce package (production build)', () =>
      runProcess(vsce, ['package', '--no-dependencies', '-o', out], { timeoutMs: 180_000 }),
    );
  let r = await pack();
  const shippedSource = () => {
    const entry = fs.existsSync(out)
      ? zipEntries(out).find((e) => e.name === 'extension/dist/extension.js')
      : undefined;
    return entry ? zipContent(out, entry).toString('utf8') : '';
  };
  if (r.code === 0 && !isProduction(shippedSource())) {
    // Another `npm run build` replaced dist/ between vsce's production build and the packaging.
    log('the VSIX holds a development build of dist/extension.js (a concurrent build?): packaging again');
    r = await pack();
  }
  const output = `${r.stdout}\n${r.stderr}`;
  if (r.code !== 0 || !fs.existsSync(out) || !isProduction(shippedSource())) {
    const why =
      r.code === 0 && fs.existsSync(out)
        ? 'the VSIX held a development build twice (concurrent builds)'
        : `vsce package exited ${r.code}: ${output.slice(-400)}`;
    for (const b of [
      'VSIX size',
      'VSIX: files under node_modules',
      'vsce: performance warnings',
      'Activation bundle size',
    ])
      table.missing(b, 'production build', why);
    return;
  }
  // vsce's own warnings (` WARNING  ...`, or `::warning::...` on GitHub Actions); npm's (`npm warn ...`,
  // from the prepublish script) are not vsce's.
  const warnings = output
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((l) => /^\s*WARNING\b|^::warning::/.test(l))
    .map((l) => l.trim());
  const perfWarnings = warnings.filter((l) => /perform|bundl|files/i.test(l));
  const entries = zipEntries(out);
  const files = entries.filter((e) => !e.name.endsWith('/'));
  const nodeModules = files.filter((e) => /(^|\/)node_modules\//.test(e.name));
  const ext = files.find((e) => e.name === 'extension/dist/extension.js');
  const api = files.find((e) => e.name === 'extension/dist/api.js');
  raw.vsix = { bytes: fs.statSync(out).size, files: files.map((e) => `${e.name} ${e.size}`), warnings };
  vsixRows(table, fs.statSync(out).size, files);
  table.add('VSIX: files under node_modules', 'production build', 'files', [nodeModules.length], 0, {
    limitText: '0',
    note: nodeModules.length
      ? nodeModules
          .slice(0, 5)
          .map((e) => e.name)
          .join(', ')
      : undefined,
  });
  table.add('vsce: performance warnings', 'production build', 'warnings', [perfWarnings.length], 0, {
    limitText: '0',
    note: warnings.length ? warnings.join(' / ') : undefined,
  });
  if (!ext || !api) {
    table.missing(
      'Activation bundle size',
      'production build',
      'dist/extension.js or dist/api.js is not in the VSIX',
    );
    return;
  }
  table.add(
    'Activation bundle size (dist/extension.js)',
    'production build',
    'KB',
    [ext.size / 1024],
    BUDGET.bundleKB,
  );
  // The activation bundle must not contain the API layer's dependencies; it requires dist/api.js lazily.
  const source = shippedSource();
  const lazy = /require\(["']\.\/api\.js["']\)/.test(source);
  const heavy = ['undici', 'ZodError', '$ZodType', 'zod/mini'].filter((w) => source.includes(w));
  table.add(
    'API layer outside the activation bundle (dist/api.js)',
    'production build',
    'KB',
    [api.size / 1024],
    undefined,
    {
      ok: lazy && heavy.length === 0,
      limitText: 'lazy',
      note: `${lazy ? 'dist/extension.js requires ./api.js on first use' : 'dist/extension.js does not require ./api.js'}${heavy.length ? `; dist/extension.js mentions ${heavy.join(', ')}` : '; no undici or zod in dist/extension.js'}`,
    },
  );
}

// The VSIX size and its parts (rows of the bench table, from the packaged VSIX's zip directory).
//
// The limit, 600 KB for the whole VSIX: it is what every user downloads and VS Code unpacks on install
// and on each update. Without object storage the VSIX was ~260 KB, most of it dist/api.js (undici and
// zod/mini). The object browser brought the AWS SDK's S3 client (the object-storage issue asks for a
// well-kept S3 client rather than hand-written signing and XML parsing): dist/s3.js, about 590 KB minified
// and 150 KB in the VSIX, loaded only when a bucket is first expanded; the VSIX is then ~450 KB. 600 KB
// leaves room for the manifest, docs and a layer or two to grow, and is broken at once by a second SDK or
// HTTP stack, a bundled node_modules/ folder, source maps, or images in the docs.
//
// The parts, each the compressed size it adds to the VSIX (the note gives the unpacked size): every
// dist/*.js bundle on its own row (a new lazy layer shows up as a row of its own without a change here),
// the manifest (package.json), the docs (readme, changelog, licence), media (icons, the TOML language
// configuration), and the VSIX's own metadata (vsixmanifest, content types) with the zip's directory.
import type { RowTable } from './rowTable';

export const VSIX_LIMIT_KB = 700;

interface Entry {
  name: string;
  size: number;
  compressed: number;
}

function partOf(name: string): string {
  const inside = name.replace(/^extension\//, '');
  if (/^dist\/[^/]+\.js$/.test(inside)) return inside;
  if (inside === 'package.json') return 'package.json (manifest)';
  if (/^(readme|changelog|license)(\.[a-z]+)?$/i.test(inside)) return 'docs (readme, changelog, licence)';
  if (inside.startsWith('media/')) return 'media (icons, language configuration)';
  if (!name.startsWith('extension/')) return 'VSIX metadata';
  return `other: ${inside}`;
}

export function vsixRows(table: RowTable, vsixBytes: number, files: readonly Entry[]): void {
  const kb = vsixBytes / 1024;
  const parts = new Map<string, { size: number; compressed: number; files: number }>();
  for (const f of files) {
    const p = partOf(f.name);
    const part = parts.get(p) ?? { size: 0, compressed: 0, files: 0 };
    part.size += f.size;
    part.compressed += f.compressed;
    part.files++;
    parts.set(p, part);
  }
  const unpacked = files.reduce((a, f) => a + f.size, 0);
  table.add('VSIX size', 'production build', 'KB', [kb], VSIX_LIMIT_KB, {
    note: `${files.length} files, ${(unpacked / 1024).toFixed(0)} KB unpacked; the parts below are compressed sizes, the rest is the zip's headers and directory`,
  });
  const sorted = [...parts.entries()].sort((a, b) => b[1].compressed - a[1].compressed);
  for (const [name, part] of sorted) {
    table.add(`  VSIX part: ${name}`, 'production build', 'KB', [part.compressed / 1024], undefined, {
      note: `${(part.size / 1024).toFixed(1)} KB unpacked${part.files > 1 ? `, ${part.files} files` : ''}`,
    });
  }
}

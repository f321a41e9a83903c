// The two job WebSockets (spec "Jobs"), on the engine's HTTP server (`ws`, upgrade requests):
//   /job/push         client: {"TENSORPOOL_KEY"}, then {tp_config, system, cluster_id, teardown_cluster};
//                     server: {job_id, message}, {message, command, command_show_stdout} (real jobs: the
//                     rsync over ssh of the client's folder to the node, engine/jobRunner.ts; simulated
//                     ones: a harmless `echo <id> > .tp-upload-marker` in the client's folder); client:
//                     {type: "command_result", command, exit_code, command_stdout, command_stderr};
//                     server: {job_id, message}, close 1000. Refusals close with a code and a reason.
//   /job/listen/{id}  client: {"TENSORPOOL_KEY"}; server: {message} per log line as it is printed,
//                     then {status: "success"|"error", message}, close 1000.
// Close codes: 1008 authentication; 4400 bad job file or payload; 4404 unknown cluster or job; 4409 cluster
// not running; 4408 no answer in time; 4422 the upload command failed.
// Logged (engine/log.ts, method `WS`): the upgrade with its URL, every message received, the close. The
// token is redacted like everywhere else. Faults (method `WS`): terminate / close / slow / silent, and
// respond (the upgrade refused with an HTTP status) / drop (the connection destroyed) (faults.ts).

import type * as http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { EngineCore } from './core';
import { TERMINAL_JOB, jobLine, readTpConfig, serviceCommand, type Job } from './jobs';
import { ANSWER_TIMEOUT_MS, Session, baseEntry, type Timers } from './jobSession';
import { redactAuthorization, redactor } from './log';

const BATCH = 500;

async function push(s: Session, core: EngineCore): Promise<void> {
  const user = await s.authenticate();
  if (!user) return;
  if (user.readonly) return s.close(1008, 'This API key is read-only and cannot submit jobs');
  const p = (await s.next(ANSWER_TIMEOUT_MS)) as Record<string, unknown> | null | undefined;
  if (s.ended) return;
  if (p === undefined) return s.close(4408, 'No job configuration received');
  if (typeof p !== 'object' || p === null) return s.close(4400, 'The second message must be a JSON object');
  const parsed = readTpConfig(p.tp_config);
  if (typeof parsed === 'string') return s.close(4400, parsed);
  if (typeof p.cluster_id !== 'string' || !p.cluster_id.trim())
    return s.close(4400, 'cluster_id is required');
  if (p.teardown_cluster !== undefined && typeof p.teardown_cluster !== 'boolean')
    return s.close(4400, 'teardown_cluster must be a boolean');
  const now = Date.now();
  const state = core.state;
  const cluster = state.clusters.findCluster(user, p.cluster_id, now);
  if (!cluster) return s.close(4404, `Cluster '${p.cluster_id}' not found`);
  const status = state.clusters.view(cluster, now).status;
  if (status !== 'RUNNING') return s.close(4409, `Cluster ${cluster.id} is ${status}, not RUNNING`);
  const teardown = p.teardown_cluster === true;
  const input = {
    tpConfig: p.tp_config as string,
    system: String(p.system ?? ''),
    clusterId: cluster.id,
    teardown,
  };
  const job = state.jobs.create(user, input, now, parsed);
  if (!(await s.out({ job_id: job.id, message: `Job ${job.id} created on cluster ${cluster.id}.` }))) return;
  // Real jobs (engine/jobRunner.ts): an rsync over ssh to the job's folder on the first node.
  const runner = core.options.jobs;
  const target = runner?.node(cluster);
  if (runner && !target) {
    state.jobs.uploadFailed(job, 'node unreachable');
    return s.close(4409, `The first node of cluster ${cluster.id} is not reachable`);
  }
  const real = target ? runner!.prepare(job, target.node) : `echo ${job.id} > .tp-upload-marker`;
  const login = target?.node ?? { user: 'root', host: '127.0.0.1', port: 22 };
  const command = serviceCommand(job.cfg.pushCommand, real, { ...login, job: job.id });
  const asked = { message: 'Uploading project files...', command, command_show_stdout: false };
  if (!(await s.out(asked))) return;
  const r = (await s.next(job.cfg.answerMs)) as Record<string, unknown> | null | undefined;
  if (s.ended) return;
  if (!r || r.type !== 'command_result') {
    state.jobs.uploadFailed(job, 'no command result');
    return s.close(4408, 'No command_result received for the upload command');
  }
  if (r.exit_code !== 0) {
    const stderr = typeof r.command_stderr === 'string' ? r.command_stderr.trim() : '';
    state.jobs.uploadFailed(job, stderr || `exit code ${String(r.exit_code)}`);
    await s.out({
      message: `Upload failed (exit code ${String(r.exit_code)})${stderr ? `: ${stderr}` : ''}`,
    });
    return s.close(4422, `Upload failed (exit code ${String(r.exit_code)})`);
  }
  state.jobs.submitted(job, Date.now());
  if (target) runner!.start(job, target.instanceId, target.node, state.jobs);
  const tail = teardown ? ' The cluster will be destroyed when the job ends.' : '';
  const done = `Job ${job.id} submitted.${tail} Follow it with: tp job listen ${job.id}`;
  if (await s.out({ job_id: job.id, message: done })) s.close(1000, 'Job submitted');
}

async function listen(s: Session, core: EngineCore, jobId: string): Promise<void> {
  const user = await s.authenticate();
  if (!user) return;
  const job: Job | undefined = core.state.jobs.find(user, jobId);
  if (!job) return s.close(4404, `Job '${jobId}' not found`);
  const jobs = core.state.jobs;
  let idx = 0;
  for (;;) {
    if (s.ended) return;
    if (!jobs.byId(job.id)) return s.close(4404, `Job ${job.id} was deleted`);
    const now = Date.now();
    const printed = jobs.printed(job, now);
    const status = jobs.status(job, now);
    const stop = Math.min(printed, idx + BATCH);
    const sent = await s.corked(async () => {
      while (idx < stop) if (!(await s.out({ message: jobLine(job, idx++) }))) return false;
      return true;
    });
    if (!sent) return;
    if (idx < printed) {
      await new Promise<void>((r) => setImmediate(r));
      continue;
    }
    if (TERMINAL_JOB.has(status)) {
      const ok = status === 'completed';
      const colour = ok ? '\u001b[32m' : '\u001b[31m';
      const code = jobs.exitCode(job, now);
      const text = `${colour}Job ${job.id} ${status}${code === null ? '' : ` (exit code ${code})`}\u001b[0m`;
      if (await s.out({ status: ok ? 'success' : 'error', message: text })) s.close(1000, `Job ${status}`);
      return;
    }
    await s.sleep(Math.max(5, Math.min(100, job.cfg.lineMs)));
  }
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** Serve the job WebSockets on `server`; close() ends every open socket. */
export function attachJobSockets(server: http.Server, core: EngineCore, timers: Timers): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 8 << 20 });
  // A `silent` socket answers no ping (ws answers them itself otherwise).
  const mute = new WebSocketServer({ noServer: true, maxPayload: 8 << 20, autoPong: false });
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://engine.invalid');
    const path = url.pathname.replace(/\/+$/, '');
    const listenId = /^\/job\/listen\/([^/]+)$/.exec(path)?.[1];
    const redact = redactor(core.secrets());
    const entry = core.log.add({
      ...baseEntry(redact(path)),
      ws: 'upgrade',
      url: redact(req.url ?? '/'),
      query: Object.fromEntries([...url.searchParams].map(([k, v]) => [redact(k), redact(v)])),
      authorization: redactAuthorization(req.headers.authorization),
      userAgent: req.headers['user-agent'] ?? null,
    });
    if (path !== '/job/push' && listenId === undefined) {
      entry.status = 404;
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const fault = core.faults.take('WS', path);
    entry.fault = fault?.action ?? null;
    if (fault?.action === 'drop') {
      socket.destroy();
      return;
    }
    if (fault?.action === 'respond') {
      const body = fault.rawBody ?? JSON.stringify(fault.body ?? { detail: 'WebSocket refused' });
      entry.status = fault.status;
      socket.end(
        `HTTP/1.1 ${fault.status} Refused\r\nContent-Type: ${fault.contentType}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    const server = fault?.action === 'silent' ? mute : wss;
    server.handleUpgrade(req, socket, head, (ws) => {
      entry.status = 101;
      const s = new Session(core, ws, entry.path, fault, timers, socket);
      if (fault?.action === 'silent') return; // messages are logged; nothing is ever sent back
      const run = listenId !== undefined ? listen(s, core, safeDecode(listenId)) : push(s, core);
      run.catch((err: unknown) => {
        process.stderr.write(`engine: job socket error: ${err instanceof Error ? err.stack : String(err)}\n`);
        s.close(1011, 'Internal error');
      });
    });
  });
  return {
    close() {
      for (const server of [wss, mute]) {
        for (const ws of server.clients) ws.terminate();
        server.close();
      }
    },
  };
}

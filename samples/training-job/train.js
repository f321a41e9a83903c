#!/usr/bin/env node
// A small "training" script for TensorPool's sample job: no GPU and no Python needed, only Node.
// It prints progress and metric lines in two common formats, writes a checkpoint and a results file,
// and, when asked, serves a small HTTP page with its progress on a port of the node.
//
//   node train.js [--steps N] [--step-ms MS] [--serve PORT]
//   env STEPS, STEP_MS, SERVE_PORT do the same.
//   --serve PORT: a page on http://127.0.0.1:PORT/ (and /metrics as JSON) while it trains, and after
//   training it keeps serving until the job is canceled (for forwarding a port from the node).
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

function option(name, env, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? process.argv[i + 1] : process.env[env];
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n >= 0 ? n : fallback;
}

const steps = Math.max(1, Math.floor(option('steps', 'STEPS', 30)));
const stepMs = option('step-ms', 'STEP_MS', 200);
const port = option('serve', 'SERVE_PORT', 0);
const epochs = 3;
const state = { step: 0, steps, loss: 2.5, lr: 3e-4, epoch: 0, done: false };

function serve() {
  if (!port) return undefined;
  const server = http.createServer((req, res) => {
    if (req.url === '/metrics') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(state));
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>Sample training</title><h1>Sample training on ${process.env.TP_NODE ?? 'this machine'}</h1>` +
        `<p>step ${state.step} of ${state.steps}, loss ${state.loss.toFixed(4)}${state.done ? ' (done)' : ''}</p>`,
    );
  });
  server.listen(port, '127.0.0.1', () => console.log(`serving progress on http://127.0.0.1:${port}/`));
  return server;
}

function bar(done, total) {
  const width = 20;
  const full = Math.round((done / total) * width);
  return `${String(Math.round((done / total) * 100)).padStart(3)}%|${'█'.repeat(full)}${' '.repeat(width - full)}| ${done}/${total}`;
}

function finish() {
  fs.mkdirSync('checkpoints', { recursive: true });
  // The "weights": deterministic bytes from the final loss, so two runs with the same steps match.
  const weights = Buffer.alloc(64 * 1024);
  for (let i = 0; i < weights.length; i++) weights[i] = (i * 31 + Math.round(state.loss * 1e4)) & 0xff;
  const ckpt = path.join('checkpoints', 'model-final.ckpt');
  fs.writeFileSync(ckpt, weights);
  const results = { steps, final_loss: Number(state.loss.toFixed(4)), epochs, checkpoint: ckpt };
  fs.writeFileSync('results.json', `${JSON.stringify(results, null, 2)}\n`);
  console.log(`saved ${ckpt} (${weights.length} bytes) and results.json`);
  console.log(
    `{'train_runtime': ${((steps * stepMs) / 1000).toFixed(2)}, 'train_loss': ${state.loss.toFixed(4)}, 'epoch': ${epochs}.0}`,
  );
}

const server = serve();
console.log(`training for ${steps} steps (${epochs} epochs) on ${process.env.TP_NODE ?? 'this machine'}`);
const timer = setInterval(() => {
  state.step++;
  state.loss = Math.max(0.05, state.loss * 0.93 + 0.02 * Math.sin(state.step));
  state.lr = 3e-4 * (1 - state.step / (steps + 1));
  state.epoch = (epochs * state.step) / steps;
  // The format of Hugging Face's Trainer, and the key=value one of many training loops.
  if (state.step % 2 === 0)
    console.log(
      `{'loss': ${state.loss.toFixed(4)}, 'learning_rate': ${state.lr.toExponential(2)}, 'epoch': ${state.epoch.toFixed(2)}}`,
    );
  else console.log(`step=${state.step} loss=${state.loss.toFixed(4)} lr=${state.lr.toExponential(2)}`);
  if (state.step % 5 === 0 || state.step === steps) console.error(`train: ${bar(state.step, steps)}`);
  if (state.step >= steps) {
    clearInterval(timer);
    state.done = true;
    finish();
    if (server) console.log('training done; still serving until the job is canceled');
  }
}, stepMs);
process.on('SIGTERM', () => process.exit(143));

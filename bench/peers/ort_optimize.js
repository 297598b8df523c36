#!/usr/bin/env node
// Writes the graph ONNX Runtime runs at one optimization level (bench/peers).
//
//   node ort_optimize.js MODEL.onnx LEVEL OUT.onnx
//
// Creates an InferenceSession at LEVEL (disabled, basic, extended, all) with
// optimizedModelFilePath=OUT.onnx, so ORT saves the graph its optimizers
// left, and prints ONE JSON line on stdout: {"ok": true, "ms": x} (x the
// session creation's wall time, saving included). peers.py imports the
// saved graph into GOpt and times it without GOpt's passes: ORT's graph
// rewrites measured on GOpt's backend. At `basic` the graph holds standard
// ONNX ops only (constants folded, batch norms folded into convolutions);
// `extended` and `all` write ORT's own com.microsoft ops (FusedConv,
// FusedMatMul, NCHWc convolutions), which only ORT runs. Errors go to
// stderr as "ort_optimize: error: ..." with exit status 1.
'use strict';

const fs = require('fs');

function fail(message) {
  process.stderr.write(`ort_optimize: error: ${message}\n`);
  process.exit(1);
}

async function main() {
  const [model, level, out] = process.argv.slice(2);
  if (!model || !level || !out || process.argv.length !== 5) {
    fail('usage: node ort_optimize.js MODEL.onnx LEVEL OUT.onnx');
  }
  if (!['disabled', 'basic', 'extended', 'all'].includes(level)) {
    fail(`unknown level '${level}' (disabled, basic, extended, all)`);
  }
  let ort;
  try {
    ort = require('onnxruntime-node');
  } catch (e) {
    fail('onnxruntime-node is not installed: run bench/peers/setup.sh');
  }
  const bytes = fs.readFileSync(model);
  const start = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(bytes, {
    executionProviders: ['cpu'], graphOptimizationLevel: level,
    optimizedModelFilePath: out, intraOpNumThreads: 1, logSeverityLevel: 3});
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  await session.release();
  if (!fs.existsSync(out)) fail(`ORT wrote no ${out}`);
  process.stdout.write(JSON.stringify({ok: true, ms}) + '\n');
}

main().catch((e) => fail(e && e.message ? e.message : String(e)));

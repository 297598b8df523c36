#!/usr/bin/env node
// ONNX Runtime worker for GOpt's side-by-side benchmark (bench/peers).
//
//   node ort_worker.js MODEL.onnx INPUT.npy OUTPREFIX [--threads=N]
//        [--levels=disabled,basic,extended,all] [--no-spin] [--cold]
//        [--twice]
//
// Creates one InferenceSession per graph optimization level (CPU execution
// provider, intraOpNumThreads=N, interOpNumThreads=1, sequential execution),
// timing each creation; runs each session once on INPUT.npy and writes its
// first output to OUTPREFIX.LEVEL.npy; then prints ONE JSON line on stdout:
//
//   {"ready": true, "version": "1.31.1",
//    "session_ms": {"disabled": x, ...}, "failed": {"LEVEL": "reason"}}
//
// An untimed session of the model (level disabled) is created and released
// first, so that ORT's one-off initialization (its environment, the
// process's first use of memory) is not in the first level's time;
// --cold leaves it out. --twice creates each level's session twice, the
// first released before the second, and adds the first's times as
// "first_session_ms" (session_ms are the second's): with --cold, a fresh
// process's session and a warm one's (bench/peers, "compile figures").
//
// and reads commands from stdin, one per line:
//   run LEVEL N   runs that session N times, prints {"times_ms": [...]}
//                 (or {"error": "..."} when the run throws)
//   quit          (or EOF) exits 0
//
// Each time is the wall time of one `await session.run(feeds)` with the
// input tensor created once, outputs allocated by ORT, as an application
// calls it. Errors before "ready" go to stderr as "ort_worker: error: ..."
// with exit status 1.
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');

function fail(message) {
  process.stderr.write(`ort_worker: error: ${message}\n`);
  process.exit(1);
}

// --- .npy reading and writing (little-endian, C order) -------------------

const NPY_TYPES = {
  '<f4': {type: 'float32', array: Float32Array, size: 4},
  '<f8': {type: 'float64', array: Float64Array, size: 8},
  '<i8': {type: 'int64', array: BigInt64Array, size: 8},
  '<i4': {type: 'int32', array: Int32Array, size: 4},
};

/** Reads a .npy file: {type, dims, data}. */
function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.length < 10 || buf.readUInt8(0) !== 0x93 ||
      buf.toString('latin1', 1, 6) !== 'NUMPY') {
    throw new Error(`${file}: not a .npy file`);
  }
  const major = buf.readUInt8(6);
  let headerLen, offset;
  if (major === 1) {
    headerLen = buf.readUInt16LE(8);
    offset = 10;
  } else {
    headerLen = buf.readUInt32LE(8);
    offset = 12;
  }
  const header = buf.toString('latin1', offset, offset + headerLen);
  const descr = /'descr':\s*'([^']+)'/.exec(header);
  const fortran = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape) {
    throw new Error(`${file}: cannot parse header ${header.trim()}`);
  }
  const kind = NPY_TYPES[descr[1]];
  if (!kind) throw new Error(`${file}: unsupported dtype ${descr[1]}`);
  if (fortran[1] === 'True') throw new Error(`${file}: Fortran order`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s)
      .map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const start = offset + headerLen;
  if (buf.length - start < count * kind.size) {
    throw new Error(`${file}: truncated data`);
  }
  // Copy into an aligned buffer of its own.
  const bytes = new Uint8Array(count * kind.size);
  bytes.set(buf.subarray(start, start + count * kind.size));
  return {type: kind.type, dims, data: new kind.array(bytes.buffer)};
}

/** Writes a typed array with dims as a version 1.0 .npy file. */
function writeNpy(file, type, dims, data) {
  const descr = Object.keys(NPY_TYPES).find((k) => NPY_TYPES[k].type === type);
  if (!descr) throw new Error(`cannot write ${type} to .npy`);
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header =
      `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const pre = Buffer.alloc(10);
  pre.writeUInt8(0x93, 0);
  pre.write('NUMPY', 1, 'latin1');
  pre.writeUInt8(1, 6);
  pre.writeUInt8(0, 7);
  pre.writeUInt16LE(header.length, 8);
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'),
    body]));
}

// --- the worker -----------------------------------------------------------

function parseArgs(argv) {
  const positional = [];
  const options = {
    threads: 1, levels: ['disabled', 'basic', 'extended', 'all'],
    spin: true, cold: false, twice: false};
  for (const arg of argv) {
    const m = /^--([a-z-]+)=(.*)$/.exec(arg);
    if (arg === '--no-spin') {
      // Idle intra-op threads sleep instead of spinning: several engines
      // share the cores, and a spinning idle pool steals them from the one
      // being timed.
      options.spin = false;
    } else if (arg === '--cold') {
      options.cold = true;
    } else if (arg === '--twice') {
      options.twice = true;
    } else if (m && m[1] === 'threads') {
      options.threads = parseInt(m[2], 10);
    } else if (m && m[1] === 'levels') {
      options.levels = m[2].split(',').filter((s) => s);
    } else if (arg.startsWith('--')) {
      fail(`unknown option ${arg}`);
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 3) {
    fail('usage: ort_worker.js MODEL.onnx INPUT.npy OUTPREFIX ' +
         '[--threads=N] [--levels=a,b] [--no-spin] [--cold] [--twice]');
  }
  if (!(options.threads >= 1)) fail('--threads must be >= 1');
  [options.model, options.input, options.outPrefix] = positional;
  return options;
}

function errorText(e) {
  return String((e && e.message) || e).split('\n')[0];
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  let ort;
  try {
    ort = require('onnxruntime-node');
  } catch (e) {
    fail(`cannot load onnxruntime-node (run bench/peers/setup.sh): ` +
         errorText(e));
  }
  let input;
  try {
    input = readNpy(options.input);
  } catch (e) {
    fail(errorText(e));
  }
  const modelBytes = fs.readFileSync(options.model);

  // The first session in a process also initializes ORT's environment
  // (about 0.1 s); an untimed one created and released first keeps that
  // out of the first level's session time (not with --cold).
  if (!options.cold) {
    try {
      const warm = await ort.InferenceSession.create(modelBytes, {
        graphOptimizationLevel: 'disabled', intraOpNumThreads: 1,
        interOpNumThreads: 1, logSeverityLevel: 3});
      await warm.release();
    } catch (e) {
      // Each level reports its own error below.
    }
  }

  const sessions = {};
  const feeds = {};
  const sessionMs = {};
  const firstSessionMs = {};
  const failed = {};
  const createTimed = async (level) => {
    const start = process.hrtime.bigint();
    const session = await ort.InferenceSession.create(modelBytes, {
      executionProviders: ['cpu'],
      graphOptimizationLevel: level,
      intraOpNumThreads: options.threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      logSeverityLevel: 3,
      extra: options.spin ? {} :
          {session: {intra_op: {allow_spinning: '0'}}},
    });
    return [session, Number(process.hrtime.bigint() - start) / 1e6];
  };
  for (const level of options.levels) {
    try {
      if (options.twice) {
        const [first, ms] = await createTimed(level);
        firstSessionMs[level] = ms;
        await first.release();
      }
      const [session, ms] = await createTimed(level);
      sessionMs[level] = ms;
      const tensor = new ort.Tensor(input.type, input.data, input.dims);
      const feed = {[session.inputNames[0]]: tensor};
      const results = await session.run(feed);
      const out = results[session.outputNames[0]];
      writeNpy(`${options.outPrefix}.${level}.npy`, out.type, out.dims,
          out.data);
      sessions[level] = session;
      feeds[level] = feed;
    } catch (e) {
      failed[level] = errorText(e);
    }
  }
  const version = (ort.env.versions && ort.env.versions.node) ||
      require(path.join(path.dirname(require.resolve('onnxruntime-node')),
          '..', 'package.json')).version;
  const ready = {ready: true, version, session_ms: sessionMs, failed};
  if (options.twice) ready.first_session_ms = firstSessionMs;
  process.stdout.write(JSON.stringify(ready) + '\n');

  const lines = readline.createInterface({input: process.stdin});
  for await (const line of lines) {
    const words = line.trim().split(/\s+/);
    if (words[0] === 'quit') break;
    if (words[0] !== 'run' || words.length !== 3) {
      process.stdout.write(JSON.stringify(
          {error: `unknown command: ${line.trim()}`}) + '\n');
      continue;
    }
    const session = sessions[words[1]];
    const n = parseInt(words[2], 10);
    if (!session || !(n >= 0)) {
      process.stdout.write(JSON.stringify(
          {error: `no session ${words[1]} or bad count ${words[2]}`}) + '\n');
      continue;
    }
    const feed = feeds[words[1]];
    const times = [];
    try {
      for (let i = 0; i < n; ++i) {
        const start = process.hrtime.bigint();
        await session.run(feed);
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      process.stdout.write(JSON.stringify({times_ms: times}) + '\n');
    } catch (e) {
      process.stdout.write(JSON.stringify({error: errorText(e)}) + '\n');
    }
  }
  for (const session of Object.values(sessions)) await session.release();
  process.exit(0);
}

main().catch((e) => fail(errorText(e)));

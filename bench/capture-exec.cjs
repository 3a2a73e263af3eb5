// Preloaded into one unmeasured `play` re-run by the bench (`node --require bench/capture-exec.cjs`,
// PLAY_BENCH_CAPTURE=DIR): writes the command of each host's first exec to DIR/ADDR (ADDR:PORT
// beside port 22), so that `bench/ssh2-floor.mjs --scripts DIR` runs on each host exactly what a
// re-run ran there. The floor then holds the hosts' own work, which the lab's hosts do on the
// controller's cores, apart from what play's controller adds.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Client } = require('ssh2');

const dir = process.env.PLAY_BENCH_CAPTURE;
if (!dir) throw new Error('capture-exec.cjs: PLAY_BENCH_CAPTURE names no directory');
const exec = Client.prototype.exec;
const seen = new Set();
Client.prototype.exec = function (command, ...rest) {
  const { host, port } = this.config;
  const target = port === 22 ? host : `${host}:${port}`;
  if (!seen.has(target)) {
    seen.add(target);
    writeFileSync(join(dir, target), command);
  }
  return exec.call(this, command, ...rest);
};

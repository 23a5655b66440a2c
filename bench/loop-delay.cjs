// The bot's event loop, second by second: utilisation, timer delay and GC pauses (perf_hooks). Preloaded into
// the bot for one run (bench/README, "fifth session"); appends to bench/tmp/loop-delay-<pid>.txt.
const { constants, monitorEventLoopDelay, PerformanceObserver, performance } = require('node:perf_hooks');
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, 'tmp', `loop-delay-${process.pid}.txt`);
fs.mkdirSync(path.dirname(file), { recursive: true });
const delay = monitorEventLoopDelay({ resolution: 2 });
delay.enable();
let last = performance.eventLoopUtilization();
/** The second's collections: [count, longest pause ms] for scavenges and for full (mark-compact) ones. */
let gc = { minor: [0, 0], major: [0, 0] };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR ? gc.major : gc.minor;
    kind[0] += 1;
    kind[1] = Math.max(kind[1], entry.duration);
  }
}).observe({ entryTypes: ['gc'] });
const ms = (ns) => (ns / 1e6).toFixed(1);
const pauses = ([count, longest]) => `${count}×≤${longest.toFixed(1)}`;
setInterval(() => {
  const now = performance.eventLoopUtilization();
  const utilisation = performance.eventLoopUtilization(now, last).utilization;
  last = now;
  const fields = [
    new Date().toISOString(),
    `elu=${utilisation.toFixed(2)}`,
    `p50=${ms(delay.percentile(50))} p99=${ms(delay.percentile(99))} max=${ms(delay.max)}`,
    `gc minor ${pauses(gc.minor)} major ${pauses(gc.major)}`,
  ];
  gc = { minor: [0, 0], major: [0, 0] };
  fs.appendFileSync(file, `${fields.join(' ')}\n`);
  delay.reset();
}, 1000).unref();

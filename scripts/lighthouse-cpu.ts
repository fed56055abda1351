/**
 * Lighthouse's mobile preset slows the CPU 4x, which stands for a mid-range phone only on a host
 * as fast as the one the preset was tuned on (benchmarkIndex about 1,500). On a slower host the
 * same 4x emulates a far slower phone, and even a page with no code of ours scores in the 70s.
 * Lighthouse's authors publish the multiplier that emulates the same phone from a host's
 * benchmarkIndex (their CPU throttling calculator, linked from Lighthouse's docs/throttling.md):
 * 150 → 1x, 800 → 2x, 1300 → 3x, then 1x more per 233. This is that mapping.
 */
export function cpuMultiplierFor(benchmarkIndex: number): number {
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex <= 150) return 1;
  if (benchmarkIndex < 800) return 1 + (benchmarkIndex - 150) / 650;
  if (benchmarkIndex < 1300) return 2 + (benchmarkIndex - 800) / 500;
  return 3 + (benchmarkIndex - 1300) / 233;
}

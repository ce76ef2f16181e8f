// The benchmark runner's goal check: a result below its goal is named in the run's last lines.
import { describe, expect, it } from 'vitest';
import { goalMet } from '../bench/goal.ts';

describe('benchmark goals', () => {
  it('reads ratio and value bounds from the goal\'s words', () => {
    expect(goalMet({ value: 625, ratio: 0.043, goal: 'ratio >= 0.35: claimed in batches' })).toBe(false);
    expect(goalMet({ value: 9000, ratio: 0.4, goal: 'ratio >= 0.35: claimed in batches' })).toBe(true);
    expect(goalMet({ value: 197.3, ratio: 1.6, goal: '<= 200 KB gzip' })).toBe(true);
    expect(goalMet({ value: 235.8, ratio: 2, goal: '<= 200 KB gzip' })).toBe(false);
    expect(goalMet({ value: 9.4, ratio: 9.4, goal: 'ratio <= 5' })).toBe(false);
    expect(goalMet({ value: 62, ratio: 1, goal: 'p95 <= 50 ms for a page of 50' })).toBe(false);
    expect(goalMet({ value: 40, ratio: 0.04, goal: 'value < 100 ms and ratio <= 0.05' })).toBe(true);
    expect(goalMet({ value: 1, ratio: 1, goal: 'p99 within 8 concurrent verifies' })).toBeNull();
  });
});

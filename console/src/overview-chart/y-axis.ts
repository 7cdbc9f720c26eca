import type uPlot from 'uplot';
import { type ChartLine, formatValue } from '../state/overview-charts.ts';

/** Whole steps between ticks, 1, 2, 5, 10, 20, 50 … 5e15: what a count can step by. */
export const WHOLE_INCRS: readonly number[] = Array.from({ length: 16 }, (_, e) => [1, 2, 5].map((m) => m * 10 ** e)).flat();

/** Units whose values are whole numbers: a tick between two of them would name no value at all. */
const WHOLE_UNITS: readonly ChartLine['unit'][] = ['count', 'tokens'];

/**
 * The y axis of an overview chart in `unit`. Counted things (conversations, failures, tokens)
 * step by whole numbers: uPlot's own steps go down to fractions, so three failures drew ticks
 * at 0, 0.5, 1, 1.5 … which a whole-number label reads as 0, 1, 1, 2. Money and latency keep
 * uPlot's fractional steps ($0.0005 is a real amount).
 * @example yAxis('count').incrs // [1, 2, 5, 10, …]
 */
export function yAxis(unit: ChartLine['unit']): uPlot.Axis {
  return {
    values: (_u: uPlot, ticks: number[]) => ticks.map((v) => formatValue(v, unit)),
    size: 70,
    ...(WHOLE_UNITS.includes(unit) ? { incrs: [...WHOLE_INCRS] } : {}),
  };
}

/// <reference types="mocha" />
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import uPlot from 'uplot';
import type { ChartLine } from '../state/overview-charts.ts';
import { yAxis } from './y-axis.ts';

const DAY = 86_400;
const x = Array.from({ length: 7 }, (_, i) => 1_780_000_000 + i * DAY);

/**
 * Draws a real uPlot chart of `values` with the overview's y axis for `unit`, and returns the
 * tick labels uPlot asked the axis for on its last draw (what the canvas shows).
 */
async function tickLabels(unit: ChartLine['unit'], values: number[]): Promise<string[]> {
  const axis = yAxis(unit);
  const format = axis.values as (u: uPlot, ticks: number[], i: number, space: number, incr: number) => string[];
  let labels: string[] = [];
  const host = await fixture<HTMLDivElement>(html`<div style="width: 480px"></div>`);
  const plot = new uPlot(
    {
      width: 480,
      height: 200,
      series: [{}, { label: 'line' }],
      axes: [{}, { ...axis, values: (u, ticks, i, space, incr) => (labels = format(u, ticks, i, space, incr)) }],
      scales: { y: { range: (_u, min, max) => [Math.min(0, min), Math.max(max, unit === 'usd' ? 0.001 : 1)] } },
    },
    [x, values],
    host,
  );
  await waitUntil(() => labels.length > 0, 'the axis drawn');
  plot.destroy();
  return labels;
}

describe('overview charts: the y axis', () => {
  it('counts tick at distinct whole numbers, however small the counts', async () => {
    for (const values of [
      [0, 1, 0, 0, 1, 0, 0],
      [0, 2, 3, 1, 0, 0, 1],
      [0, 0, 0, 0, 0, 0, 0],
    ]) {
      const labels = await tickLabels('count', values);
      expect(new Set(labels).size, labels.join(', ')).to.equal(labels.length);
      expect(
        labels.every((l) => /^\d+$/.test(l)),
        labels.join(', '),
      ).to.be.true;
      expect(labels).to.include('0').and.include('1');
    }
    expect(await tickLabels('count', [0, 2, 3, 1, 0, 0, 1])).to.deep.equal(['0', '1', '2', '3']);
  });

  it('tokens step by whole numbers too; money keeps fractional ticks', async () => {
    const tokens = await tickLabels('tokens', [0, 3, 1, 0, 0, 0, 2]);
    expect(tokens).to.deep.equal(['0', '1', '2', '3']);
    const cost = await tickLabels('usd', [0, 0.0004, 0.0002, 0, 0, 0, 0.0001]);
    expect(cost.length).to.be.greaterThan(2);
    expect(
      cost.every((l) => /^\$0\.\d{4}$/.test(l)),
      cost.join(', '),
    ).to.be.true;
    expect(new Set(cost).size).to.equal(cost.length);
  });
});

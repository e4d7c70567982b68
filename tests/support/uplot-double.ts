// A double of uPlot for jsdom, which has no canvas: it lists the series' labels as uPlot's legend does (the real
// chart is drawn in the browser tests). Used as `vi.mock('uplot', () => import('../support/uplot-double'))`.
export default class UPlotDouble {
  constructor(options: { series: { label?: string }[] }, _data: unknown, element: HTMLElement) {
    const legend = document.createElement('ul');
    legend.className = 'u-legend';
    for (const series of options.series.slice(1)) legend.append(Object.assign(document.createElement('li'), { textContent: series.label ?? '' }));
    element.append(legend);
  }
  setSize() {}
  destroy() {}
}

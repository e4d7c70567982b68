// A metric range result drawn with uPlot (what Grafana draws with): one line per series, its legend listing each
// series' labels, and the hovered time's values in the legend (uPlot's live legend follows the cursor). A drag across
// the chart selects a time range and hands it on (onZoom) rather than zooming the drawing, so the range goes into the
// address and every query runs over it, as in Grafana's Explore.
import { useEffect, useRef, useState } from "react";
import { css } from "styled-system/css";
import type uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { ChartData } from "../../../../services/qryn-explorer";
import { legendTime, smallestStep } from "./result-format";
import { useTimeZone } from "./time-zone";

// Colours told apart in both themes (and by people with the common colour vision deficiencies, mostly).
const PALETTE = [
  "#1f77b4",
  "#ff7f0e",
  "#2ca02c",
  "#d62728",
  "#9467bd",
  "#8c564b",
  "#e377c2",
  "#17becf",
  "#bcbd22",
  "#7f7f7f",
];

export const seriesColour = (index: number) => PALETTE[index % PALETTE.length]!;

export function TimeSeriesChart({
  data,
  height = 320,
  onZoom,
}: {
  data: ChartData;
  height?: number;
  onZoom?: (range: { from: number; to: number }) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const zone = useTimeZone();
  const zoom = useRef(onZoom);
  zoom.current = onZoom;

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const text = getComputedStyle(element).color || "#444";
    const axis = {
      stroke: text,
      grid: { stroke: "rgba(128,128,128,0.2)" },
      ticks: { stroke: "rgba(128,128,128,0.3)" },
    };
    let plot: uPlot | null = null;
    let gone = false;
    const resize = new ResizeObserver(() =>
      plot?.setSize({ width: Math.max(element.clientWidth, 320), height }),
    );
    // uPlot is its own chunk: loaded when a chart is first drawn.
    void import("uplot").then(({ default: UPlot }) => {
      if (gone) return;
      try {
        plot = new UPlot(
          {
            width: Math.max(element.clientWidth, 320),
            height,
            scales: { x: { time: true } },
            // The axis in the explorer's zone, as the legend.
            tzDate: (ts: number) => UPlot.tzDate(new Date(ts * 1000), zone),
            axes: [axis, { ...axis, size: 60 }],
            series: [
              {
                label: "Time",
                // To the second when points are under a minute apart (uPlot's default shows minutes only).
                value: (_u: uPlot, v: number | null) => (v == null ? "—" : legendTime(v, smallestStep(data.xs), zone)),
              },
              ...data.names.map((name, i) => ({
                label: name,
                stroke: seriesColour(i),
                width: 1.5,
                points: { show: data.xs.length < 60 },
              })),
            ],
            legend: { live: true },
            cursor: { drag: { x: true, y: false, setScale: false } },
            hooks: {
              setSelect: [
                (u: uPlot) => {
                  const { left, width } = u.select;
                  // A click is a selection of a few pixels: not a range.
                  if (width < 3) return;
                  const from = Math.round(u.posToVal(left, "x") * 1000);
                  const to = Math.round(u.posToVal(left + width, "x") * 1000);
                  u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
                  if (to > from) zoom.current?.({ from, to });
                },
              ],
            },
          },
          [data.xs, ...data.ys] as uPlot.AlignedData,
          element,
        );
        setFailed(false);
      } catch {
        // No canvas (a browser without one): the table view still shows every value.
        setFailed(true);
      }
      resize.observe(element);
    });
    return () => {
      gone = true;
      resize.disconnect();
      plot?.destroy();
    };
  }, [data, height, zone]);

  return (
    <figure
      aria-label={`Chart of ${data.names.length} ${data.names.length === 1 ? "series" : "series"}`}
      data-series={data.names.length}
      className={css({
        m: "0",
        "& .u-legend": { textAlign: "left", fontSize: "sm" },
        "& .u-legend .u-label": { fontFamily: "mono", wordBreak: "break-all" },
      })}
    >
      <div ref={host} className={css({ w: "full", color: "fg.muted" })} />
      {failed && (
        <p>
          The chart could not be drawn in this browser; the table view shows the
          values.
        </p>
      )}
    </figure>
  );
}

// The statechart as an SVG drawing, laid out by elkjs (layered, nested states included); elkjs is loaded with the
// diagram only. Active states are filled and marked (data-active, and named in the caption for screen readers).
import { useEffect, useMemo, useState } from 'react';
import type { AnyStateMachine } from 'xstate';
import { css } from 'styled-system/css';
import { Skeleton } from '../../components/ui/spinner';
import { Alert } from '../../components/ui/alert';
import { buildChartGraph, type ChartNode } from './statechart-graph';

interface Point {
  x: number;
  y: number;
}

interface LaidOutNode extends ChartNode {
  x: number;
  y: number;
  width: number;
  height: number;
  children?: LaidOutNode[];
}

interface LaidOutEdge {
  id: string;
  sections?: Array<{ startPoint: Point; endPoint: Point; bendPoints?: Point[] }>;
  labels?: Array<{ text: string; x: number; y: number; width: number; height: number }>;
}

interface LaidOutGraph {
  width: number;
  height: number;
  children: LaidOutNode[];
  edges: LaidOutEdge[];
}

async function layout(machine: AnyStateMachine): Promise<LaidOutGraph> {
  const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
  const graph = buildChartGraph(machine);
  return (await new ELK().layout(graph as never)) as unknown as LaidOutGraph;
}

function flatten(nodes: LaidOutNode[]): LaidOutNode[] {
  return nodes.flatMap((node) => [node, ...flatten(node.children ?? [])]);
}

const nodeBox = css({ fill: 'bg.default', stroke: 'border.default', strokeWidth: '1.5' });
const activeBox = css({ fill: 'colorPalette.subtle.bg', stroke: 'colorPalette.default', strokeWidth: '3' });
const containerBox = css({ fill: 'transparent', stroke: 'border.default', strokeWidth: '1.5' });
const activeContainer = css({ fill: 'transparent', stroke: 'colorPalette.default', strokeWidth: '2.5' });
const text = css({ fill: 'fg.default', fontSize: '13px' });
const mutedText = css({ fill: 'fg.muted', fontSize: '11px' });
const edgeLine = css({ fill: 'none', stroke: 'fg.muted', strokeWidth: '1.2' });
const edgeText = css({ fill: 'fg.default', fontSize: '11px', paintOrder: 'stroke', stroke: 'bg.canvas', strokeWidth: '3px' });

export function StatechartDiagram({ machine, active, title }: { machine: AnyStateMachine; active: ReadonlySet<string>; title: string }) {
  const [graph, setGraph] = useState<LaidOutGraph | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setGraph(null);
    layout(machine).then(
      (result) => live && setGraph(result),
      (cause: unknown) => live && setError(cause instanceof Error ? cause.message : String(cause)),
    );
    return () => {
      live = false;
    };
  }, [machine]);
  const nodes = useMemo(() => (graph ? flatten(graph.children) : []), [graph]);

  if (error) return <Alert status="error" title="The diagram could not be laid out">{error}</Alert>;
  if (!graph) return <Skeleton height="64" aria-label="Laying out the diagram" />;
  const activeNames = [...active].filter((key) => nodes.some((n) => n.kind !== 'initial' && n.stateKey === key && !n.children?.length));
  return (
    // Focusable so that a keyboard can scroll a chart larger than the screen.
    // inline-size containment: a chart wider than the screen scrolls inside the figure instead of widening the page.
    <figure tabIndex={0} aria-label={`${title} diagram`} className={css({ contain: 'inline-size', w: 'full', overflow: 'auto', _focusVisible: { outline: '2px solid', outlineColor: 'colorPalette.default' }, borderWidth: '1px', borderRadius: 'l3', bg: 'bg.canvas', p: '2', maxH: '70vh' })}>
      <svg
        role="img"
        aria-label={`Statechart of ${title}`}
        width={graph.width}
        height={graph.height}
        viewBox={`0 0 ${graph.width} ${graph.height}`}
        className={css({ display: 'block' })}
      >
        <defs>
          <marker id="statechart-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" className={css({ fill: 'fg.muted' })} />
          </marker>
        </defs>
        {nodes.map((node) => {
          const isActive = active.has(node.stateKey) && node.kind !== 'initial';
          if (node.kind === 'initial') {
            return <circle key={node.id} cx={node.x + 6} cy={node.y + 6} r={6} className={css({ fill: 'fg.default' })} />;
          }
          const container = Boolean(node.children?.length);
          return (
            <g key={node.id} data-state-key={node.stateKey} data-active={isActive ? 'true' : 'false'} data-kind={node.kind}>
              <rect
                x={node.x}
                y={node.y}
                width={node.width}
                height={node.height}
                rx={10}
                strokeDasharray={node.kind === 'parallel' || node.kind === 'any' ? '6 4' : undefined}
                className={container ? (isActive ? activeContainer : containerBox) : isActive ? activeBox : nodeBox}
              />
              {node.kind === 'final' && (
                <rect x={node.x + 3} y={node.y + 3} width={node.width - 6} height={node.height - 6} rx={8} className={containerBox} />
              )}
              <text x={node.x + 10} y={node.y + 18} className={text} fontWeight={isActive ? 700 : 500} fontStyle={node.kind === 'any' ? 'italic' : undefined}>
                {node.label}
                {node.kind === 'parallel' ? ' (parallel)' : ''}
              </text>
              {node.notes.map((note, i) => (
                <text key={note} x={node.x + 10} y={node.y + 34 + i * 16} className={mutedText}>
                  {note}
                </text>
              ))}
            </g>
          );
        })}
        {graph.edges.map((edge) => (
          <g key={edge.id}>
            {edge.sections?.map((section, i) => {
              const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
              return <polyline key={i} points={points.map((p) => `${p.x},${p.y}`).join(' ')} className={edgeLine} markerEnd="url(#statechart-arrow)" />;
            })}
            {edge.labels?.map((label) => (
              <text key={label.text} x={label.x + 3} y={label.y + 11} className={edgeText}>
                {label.text}
              </text>
            ))}
          </g>
        ))}
      </svg>
      <figcaption className={css({ textStyle: 'sm', color: 'fg.muted', mt: '2' })} aria-live="polite">
        Active state: <strong data-testid="active-states">{activeNames.join(', ') || '(none)'}</strong>
      </figcaption>
    </figure>
  );
}

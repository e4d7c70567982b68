import { hasArea } from '../../app/route-paths';

/** A project's landing page: its stack when that area exists, else the project overview. */
export function projectHome(slug: string): string {
  return hasArea('stack') ? `/${slug}/stack` : `/${slug}`;
}

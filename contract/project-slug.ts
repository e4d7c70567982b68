// Project slugs (spec 000 section 2): pure string rules, kept apart from the schemas so the console's shell can use
// them without loading the schema library.

/** A slug is the lower-cased name with every run of other characters as one dash, then a dash and the id. */
export function projectSlug(name: string, id: number): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return base ? `${base}-${id}` : `project-${id}`;
}

/** The numeric id at the end of a slug, or null when the slug is not in that form. */
export function projectIdFromSlug(slug: string): number | null {
  const match = /^[a-z0-9-]*-(\d+)$/.exec(slug);
  return match ? Number(match[1]) : null;
}

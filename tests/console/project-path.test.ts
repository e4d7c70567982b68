import { describe, expect, it } from 'vitest';
import { classifyProjectPath, isProjectSlug, projectFromQuery, restoreProjectPath } from '../../src/views/project/project-path';

describe('project slug rule', () => {
  it('accepts a name, a dash and the numeric id', () => {
    expect(isProjectSlug('acme-web-12')).toBe(true);
    expect(isProjectSlug('x-1')).toBe(true);
  });
  it('rejects anything else', () => {
    for (const slug of ['acme', 'acme-', 'acme-12a', '12', 'Acme-12', '', undefined]) expect(isProjectSlug(slug)).toBe(false);
  });
  it('redirects a bad slug before a project area to /, and treats other unknown paths as not found', () => {
    expect(classifyProjectPath('acme-3', 'stack')).toBe('project');
    expect(classifyProjectPath('acme', 'stack/qryn')).toBe('redirect-home');
    expect(classifyProjectPath('acme', 'settings')).toBe('redirect-home');
    expect(classifyProjectPath('nonsense', '')).toBe('not-found');
    expect(classifyProjectPath('nonsense', 'deeper')).toBe('not-found');
  });
});

describe('remembered project restore', () => {
  const base = { search: '', state: null, rememberedSlug: 'acme-web-12', projectSlugs: ['acme-web-12', 'other-3'] };
  it('puts the remembered project into root paths that exist per project', () => {
    expect(restoreProjectPath({ ...base, pathname: '/' })).toBe('/acme-web-12');
    expect(restoreProjectPath({ ...base, pathname: '/account' })).toBe('/acme-web-12/account');
    expect(restoreProjectPath({ ...base, pathname: '/organization/create' })).toBe('/acme-web-12/organization/create');
  });
  it('leaves a path that already has a project', () => {
    expect(restoreProjectPath({ ...base, pathname: '/other-3/account' })).toBeNull();
  });
  it('leaves navigations that carry state or a query string', () => {
    expect(restoreProjectPath({ ...base, pathname: '/', search: '?edit=profile' })).toBeNull();
    expect(restoreProjectPath({ ...base, pathname: '/', state: { from: 'menu' } })).toBeNull();
  });
  it('ignores a remembered project that no longer exists or paths without a project variant', () => {
    expect(restoreProjectPath({ ...base, pathname: '/', projectSlugs: ['other-3'] })).toBeNull();
    expect(restoreProjectPath({ ...base, pathname: '/projects' })).toBeNull();
    expect(restoreProjectPath({ ...base, pathname: '/', rememberedSlug: null })).toBeNull();
  });
});

describe('the project query parameter', () => {
  const projectSlugs = ['acme-production-1', 'acme-staging-2'];
  it('moves a known project into the path and drops the parameter', () => {
    expect(projectFromQuery({ pathname: '/', search: '?project=acme-staging-2', projectSlugs })).toEqual({ slug: 'acme-staging-2', target: '/acme-staging-2' });
    expect(projectFromQuery({ pathname: '/billing', search: '?project=acme-staging-2&edit=payment-method', projectSlugs })).toEqual({
      slug: 'acme-staging-2',
      target: '/acme-staging-2/billing?edit=payment-method',
    });
    expect(projectFromQuery({ pathname: '/acme-production-1/settings', search: '?project=acme-staging-2', projectSlugs })?.target).toBe('/acme-staging-2/settings');
  });
  it('ignores a project the user does not have, or no parameter', () => {
    expect(projectFromQuery({ pathname: '/', search: '?project=other-9', projectSlugs })).toBeNull();
    expect(projectFromQuery({ pathname: '/', search: '', projectSlugs })).toBeNull();
  });
});

// @vitest-environment jsdom
// The product guard right after a product is enabled: the add page refreshes the project's integrations and opens
// the product at once, so the guard can meet the cached list from before the enable while its refetch is under way.
// It must wait for the fresh list instead of sending the person back to the stack page (a real race the Grafana
// browser test met), and still send them back when the fresh list does not have the product.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

const project = { id: 7, slug: 'lab-1', name: 'Lab' };
vi.mock('../../src/views/shell/use-shell-data', () => ({ useShellData: () => ({ currentProject: project }) }));

let fresh: () => Promise<unknown[]>;
vi.mock('../../src/services/shell-reads', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  listIntegrations: () => fresh(),
}));

const { RequireIntegration } = await import('../../src/views/stack/require-integration');
const { queries } = await import('../../src/app/query-keys');

const integration = (slug: string) => ({ id: 1, status: 'trial', isUserActive: true, product: { slug, name: slug } });

function renderGuard(client: QueryClient) {
  const router = createMemoryRouter(
    [
      { path: '/:projectSlug/stack', element: <h1>Stack</h1> },
      { path: '/:projectSlug/stack/grafana', element: <RequireIntegration productSlug="grafana"><h1>Grafana</h1></RequireIntegration> },
    ],
    { initialEntries: ['/lab-1/stack/grafana'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('RequireIntegration', () => {
  afterEach(cleanup);

  it('waits for the refetch of a list that does not have the product yet, then opens the product', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client.setQueryData(queries.integrations(project.id).queryKey, [integration('qryn')] as never);
    let answer!: (list: unknown[]) => void;
    fresh = () => new Promise((resolve) => (answer = resolve));
    void client.invalidateQueries({ queryKey: ['integrations'] });
    const router = renderGuard(client);
    expect(screen.getByText('Loading')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/lab-1/stack/grafana');
    answer([integration('qryn'), integration('grafana')]);
    expect(await screen.findByRole('heading', { name: 'Grafana' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/lab-1/stack/grafana');
  });

  it('sends the person to the stack page when the fresh list does not have the product', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    fresh = async () => [integration('qryn')];
    const router = renderGuard(client);
    expect(await screen.findByRole('heading', { name: 'Stack' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/lab-1/stack');
  });
});

import { createBrowserRouter, type RouteObject } from 'react-router';
import { RouteErrorView } from '../views/errors/route-error-view';
import { RequireAuth } from '../views/auth/require-auth';
import { FullPageLoading } from '../views/shell/full-page-loading';
import { RootLayout } from './root-layout';
import { areaRoutes } from './routes';

const lazyView =
  <M extends Record<string, unknown>>(loader: () => Promise<M>, name: keyof M & string) =>
  async () => ({ Component: (await loader())[name] as React.ComponentType });

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorView />,
    hydrateFallbackElement: <FullPageLoading />,
    children: [
      { path: 'auth', lazy: lazyView(() => import('../views/auth/auth-callback-view'), 'AuthCallbackView') },
      { path: 'login', lazy: lazyView(() => import('../views/auth/login-view'), 'LoginView') },
      { path: 'logout', lazy: lazyView(() => import('../views/auth/logout-view'), 'LogoutView') },
      {
        element: <RequireAuth />,
        errorElement: <RouteErrorView />,
        children: [
          ...areaRoutes('bare'),
          {
            lazy: lazyView(() => import('../views/shell/shell-layout'), 'ShellLayout'),
            errorElement: <RouteErrorView />,
            children: [
              {
                errorElement: <RouteErrorView />,
                children: [
                  { index: true, lazy: lazyView(() => import('../views/overview/overview-view'), 'OverviewView') },
                  { path: 'welcome', lazy: lazyView(() => import('../views/overview/overview-view'), 'OverviewView') },
                  { path: 'projects', lazy: lazyView(() => import('../views/projects/projects-view'), 'ProjectsView') },
                  {
                    path: 'resources/create-project',
                    lazy: async () => ({
                      Component: (await import('../views/projects/create-project-view')).CreateProjectView,
                      action: (await import('../views/project-settings/resource-actions')).createProjectAction,
                    }),
                  },
                  {
                    path: 'resources/add-to-project',
                    lazy: async () => {
                      const resources = await import('../views/project-settings/resource-actions');
                      return { loader: resources.resourceLoader, action: resources.addToProjectAction };
                    },
                  },
                  ...areaRoutes('root'),
                  {
                    path: ':projectSlug',
                    lazy: lazyView(() => import('../views/project/project-layout'), 'ProjectLayout'),
                    errorElement: <RouteErrorView />,
                    children: [
                      { index: true, lazy: lazyView(() => import('../views/overview/overview-view'), 'OverviewView') },
                      ...areaRoutes('project'),
                      { path: '*', lazy: lazyView(() => import('../views/errors/not-found-view'), 'NotFoundView') },
                    ],
                  },
                  { path: '*', lazy: lazyView(() => import('../views/errors/not-found-view'), 'NotFoundView') },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}

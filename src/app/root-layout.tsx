import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { Toaster } from '../components/ui/toaster';
import { AuthProvider } from './auth-provider';

// The statechart studio's inspect mode, in development builds only: the condition is false in a production build,
// so the panel and its import are dropped from it.
const InspectPanel = import.meta.env.DEV ? lazy(async () => ({ default: (await import('../views/statecharts/inspect-panel')).InspectPanel })) : null;

/** Top of the route tree: the auth actor lives here so it survives every navigation. */
export function RootLayout() {
  return (
    <AuthProvider>
      <Outlet />
      <Toaster />
      {InspectPanel && (
        <Suspense fallback={null}>
          <InspectPanel />
        </Suspense>
      )}
    </AuthProvider>
  );
}

import { Outlet } from 'react-router';
import { Toaster } from '../components/ui/toaster';
import { AuthProvider } from './auth-provider';

/** Top of the route tree: the auth actor lives here so it survives every navigation. */
export function RootLayout() {
  return (
    <AuthProvider>
      <Outlet />
      <Toaster />
    </AuthProvider>
  );
}

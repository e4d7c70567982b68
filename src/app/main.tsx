import '@fontsource-variable/inter';
import './index.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { applyTheme, readThemePreference, watchSystemTheme } from '../lib/theme';
import { createQueryClient } from './query-client';
import { createRouter } from './router';
import { startTelemetry } from './telemetry';

// Before the first render, so the stored theme shows from the first frame (no inline script is allowed).
applyTheme(readThemePreference());
watchSystemTheme();
startTelemetry();

const queryClient = createQueryClient();
const router = createRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);

import { loadConfig } from './config';
import { startPlatform } from './platform';

// `npm start`: the platform with demo data on PORT (default 8080), stopped cleanly by Ctrl-C or SIGTERM.
const config = loadConfig();
const platform = await startPlatform(config, { demoStates: true });
console.log(`
Observability Console is running at ${platform.url}/
${platform.config.seedDemoData ? `  Demo sign-in:  demo@example.com / Demo1234!   (owner of the organization Acme)
  Also:          dev@example.com (read-write), viewer@example.com (read-only), new@example.com (nothing yet),
                 all with the password Demo1234! (local demo data only)
  States:        nocard@example.com (no card), ops@ / analyst@example.com (Globex: a Hepic user, a cluster in creating)
${platform.socialStandInUrl ? `  Social:        social@example.com signs in with "Continue with Social stand-in" on the login page
                 (local stand-in provider at ${platform.socialStandInUrl}; SOCIAL_OIDC_ISSUER configures a real one)
` : ''}` : '  Demo data:     off (SEED_DEMO_DATA=false)\n'}  ${platform.config.devPages ? `Mail outbox:   ${platform.url}/dev/outbox?key=${platform.config.devPagesKey}
  Clock:         ${platform.url}/dev/clock?key=${platform.config.devPagesKey}
                 (the key changes at every start unless DEV_PAGES_KEY is set; scripts send it as X-Dev-Pages-Key)` : 'Mail outbox:   off (DEV_PAGES=false, or not listening on a loopback address)'}
${platform.config.socialOidc && !platform.socialStandInUrl ? `  Social:        "Continue with ${platform.config.socialOidc.label}" (${platform.config.socialOidc.issuer})\n` : ''}  Database:      ${platform.config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : platform.config.dataDir}
`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal} received, shutting down...`);
  const timer = setTimeout(() => {
    console.error('Shutdown took too long, exiting.');
    process.exit(1);
  }, 10_000);
  timer.unref();
  try {
    await platform.close();
    process.exit(0);
  } catch (error) {
    console.error('Shutdown failed:', error);
    process.exit(1);
  }
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

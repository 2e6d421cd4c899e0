import '@fontsource-variable/inter';
import '@fontsource/orbitron/latin-500.css';
import '@fontsource/orbitron/latin-700.css';
import '@fontsource/orbitron/latin-900.css';
import './styles.css';
import { createQueryClient } from '#client/lib/query-client.ts';
import { seedUserFromPage } from '#client/features/auth/api/get-user.ts';
import { seedPageData } from '#client/lib/page-data.ts';
import { App } from './app/app.tsx';
import { mountApp } from './app/mount-app.tsx';
import { PAGE_QUERY_CONTRACTS } from './app/page-queries.ts';
import { preloadPage } from './app/router.tsx';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The server names the signed-in user in the page; when it did not, the session and the current
// page's chunk are asked for at once, so the page can show as soon as both are in rather than
// one after the other. The first render waits for the chunk: the shell never shows a stand-in
// for the page that the page would then push down (a layout shift); while the session is still
// loading, it shows one centred spinner. The page may carry its screen's data too (the player,
// the leaderboard, the tournaments): that goes into the cache as well, and is not asked again.
const queryClient = createQueryClient();
void seedPageData(queryClient, document, PAGE_QUERY_CONTRACTS);
void Promise.all([
  preloadPage(window.location.pathname),
  seedUserFromPage(queryClient, document),
]).then(() => mountApp(container, <App queryClient={queryClient} />));

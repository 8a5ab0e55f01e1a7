// examples/svelte-vite: latchkey/svelte's store in a Svelte 5 app (built with @sveltejs/vite-plugin-svelte).
import { mount } from 'svelte'
import { createAuthClient } from 'latchkey'
import App from './App.svelte'

const client = createAuthClient({ basePath: '/auth', serviceWorker: '/latchkey-sw.js' })
window.client = client
mount(App, { target: document.getElementById('root'), props: { client } })

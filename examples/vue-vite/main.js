// examples/vue-vite: latchkey/vue in a Vite app (render functions, so no SFC plugin is needed).
import { createApp, h } from 'vue'
import { createAuthClient } from 'latchkey'
import { useSession } from 'latchkey/vue'

const client = createAuthClient({ basePath: '/auth', serviceWorker: '/latchkey-sw.js' })
window.client = client

createApp({
  setup() {
    const { data, status } = useSession(client)
    return () => h('p', { id: 'out' }, status.value + ':' + (data.value?.user?.email ?? ''))
  },
}).mount('#root')

/** The frame of the server-rendered pages (the outbox), matching the app's header and styles. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

export const nav = (current: string) =>
  [
    ['/', 'App', 'app'],
    ['/react.html', 'React page', 'react'],
    ['/drop-in.html', 'Drop-in page', 'drop-in'],
    ['/outbox', 'Outbox', 'outbox'],
  ]
    .map(([href, label, id]) => `<a href="${href}"${id === current ? ' aria-current="page"' : ''}>${label}</a>`)
    .join('')

export function layout(title: string, current: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · latchkey demo</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.svg"><link rel="stylesheet" href="/demo.css"></head>
<body><header class="top"><a class="brand" href="/"><img src="/favicon.svg" alt="">latchkey <span>demo</span></a><nav>${nav(current)}</nav></header>
<main class="narrow">${body}</main></body></html>`
}

/** Shadow styles; every colour and size is a CSS custom property, every element has a `part`. */
export const styles = `
:host{display:block;font:var(--latchkey-font,inherit);color:var(--latchkey-color,inherit)}
:host([hidden]){display:none}
[hidden]{display:none!important}
.stack{display:grid;gap:var(--latchkey-gap,.75rem);max-width:var(--latchkey-width,22rem)}
form{display:grid;gap:var(--latchkey-gap,.5rem)}
label{display:grid;gap:.25rem;font-size:.9em}
input{font:inherit;padding:.55em .7em;border:1px solid var(--latchkey-border,#c8ccd2);border-radius:var(--latchkey-radius,.4rem)}
button{font:inherit;display:flex;align-items:center;justify-content:center;gap:.6em;padding:.6em 1em;cursor:pointer;
 border:1px solid var(--latchkey-border,#c8ccd2);border-radius:var(--latchkey-radius,.4rem);
 background:var(--latchkey-brand,var(--latchkey-button-bg,#fff));color:var(--latchkey-brand-text,var(--latchkey-button-color,#111))}
button[style*="--latchkey-brand:"]{color:var(--latchkey-brand-text,#fff);border-color:transparent}
button:disabled{opacity:.6;cursor:progress}
:is(button,input,a):focus-visible{outline:2px solid var(--latchkey-focus,#2563eb);outline-offset:2px}
img{width:1.25em;height:1.25em}
.mark{display:inline-grid;place-items:center;flex:none;width:1.35em;height:1.35em;border:1.5px solid;border-radius:50%;font-size:.8em;font-weight:700;line-height:1}
.error{color:var(--latchkey-error,#b42318);margin:0}
.message{margin:0}
.user{display:flex;align-items:center;gap:.6em}
.avatar{width:var(--latchkey-avatar-size,2rem);height:var(--latchkey-avatar-size,2rem);border-radius:50%}
.sessions,.accounts,.factors{list-style:none;margin:0;padding:0;display:grid;gap:.5rem}
:is(.sessions,.factors) li{display:grid;grid-template-columns:1fr auto;gap:.1rem .6rem;align-items:center}
:is(.sessions,.factors) [part=when]{grid-column:1;font-size:.85em;opacity:.75}
:is(.sessions,.factors) button{grid-row:1/3;grid-column:2}
.accounts li{display:flex;align-items:center;justify-content:space-between;gap:.6rem}
h2{margin:0;font-size:1.15em}
a[part~=button]{display:flex;align-items:center;justify-content:center;padding:.6em 1em;border:1px solid var(--latchkey-border,#c8ccd2);border-radius:var(--latchkey-radius,.4rem);color:inherit;text-decoration:none}
.row{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}
.codes{columns:2;gap:1.5rem;margin:0;padding:0;list-style-position:inside;line-height:1.8;font-family:ui-monospace,monospace}
img.qr{width:var(--latchkey-qr-size,12rem);height:auto;background:#fff}
[part=secret] code{font-family:ui-monospace,monospace;word-spacing:.3em}
`

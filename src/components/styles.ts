/**
 * Shadow styles; every colour and size is a CSS custom property, every element has a `part`.
 * The defaults follow `prefers-color-scheme` (the host paints its own `Canvas`, so text keeps its
 * contrast on any page), keep 3:1 borders and 24px targets (WCAG 2.2 AA), and give way to
 * `forced-colors` and `prefers-reduced-motion`.
 */
export const styles = `
:host{display:block;color-scheme:light dark;font:var(--latchkey-font,inherit);color:var(--latchkey-color,CanvasText);background:var(--latchkey-background,Canvas);
 --b:var(--latchkey-border,#6b7079);--bg:var(--latchkey-button-bg,#fff);--fg:var(--latchkey-button-color,#111);--in:var(--latchkey-input-bg,#fff);--err:var(--latchkey-error,#b42318);--focus:var(--latchkey-focus,#2563eb)}
@media (prefers-color-scheme:dark){:host{--b:var(--latchkey-border,#8e949e);--bg:var(--latchkey-button-bg,#22262d);--fg:var(--latchkey-button-color,#f2f3f5);--in:var(--latchkey-input-bg,#16181c);--err:var(--latchkey-error,#ff9389);--focus:var(--latchkey-focus,#7cb0ff)}}
:host([hidden]){display:none}
[hidden]{display:none!important}
.stack{display:grid;gap:var(--latchkey-gap,.75rem);max-width:var(--latchkey-width,22rem)}
form{display:grid;gap:var(--latchkey-gap,.5rem)}
label{display:grid;gap:.25rem;font-size:.9em}
input{font:inherit;min-height:24px;padding:.55em .7em;border:1px solid var(--b);border-radius:var(--latchkey-radius,.4rem);background:var(--in);color:inherit}
input[type=checkbox]{width:24px;height:24px;margin:0;padding:0;accent-color:var(--focus)}
label[part~=trust]{display:flex;align-items:center;gap:.5em}
button{font:inherit;display:flex;align-items:center;justify-content:center;gap:.6em;min-height:24px;min-width:24px;padding:.6em 1em;cursor:pointer;
 border:1px solid var(--b);border-radius:var(--latchkey-radius,.4rem);
 background:var(--latchkey-brand,var(--bg));color:var(--latchkey-brand-text,var(--fg))}
button[style*="--latchkey-brand:"]{color:var(--latchkey-brand-text,#fff);border-color:transparent}
button:disabled{opacity:.6;cursor:progress}
:is(button,input,a,[tabindex]):focus-visible{outline:2px solid var(--focus);outline-offset:2px}
img{width:1.25em;height:1.25em}
.mark{display:inline-grid;place-items:center;flex:none;width:1.35em;height:1.35em;border:1.5px solid;border-radius:50%;font-size:.8em;font-weight:700;line-height:1}
.last-used{font-size:.75em;font-weight:600;padding:.1em .55em;border:1px solid;border-radius:999px;white-space:nowrap}
.error{color:var(--err);margin:0}
.message{margin:0}
a{color:inherit}
.user{display:flex;align-items:center;gap:.6em}
.avatar{width:var(--latchkey-avatar-size,2rem);height:var(--latchkey-avatar-size,2rem);border-radius:50%}
.sessions,.accounts,.factors{list-style:none;margin:0;padding:0;display:grid;gap:.5rem}
:is(.sessions,.factors) li{display:grid;grid-template-columns:1fr auto;gap:.1rem .6rem;align-items:center}
:is(.sessions,.factors) [part=when]{grid-column:1;font-size:.85em}
:is(.sessions,.factors) button{grid-row:1/3;grid-column:2}
.accounts li{display:flex;align-items:center;justify-content:space-between;gap:.6rem}
h2{margin:0;font-size:1.15em}
a[part~=button]{display:flex;align-items:center;justify-content:center;min-height:24px;padding:.6em 1em;border:1px solid var(--b);border-radius:var(--latchkey-radius,.4rem);color:inherit;text-decoration:none}
.row{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}
.codes{columns:2;gap:1.5rem;margin:0;padding:0;list-style-position:inside;line-height:1.8;font-family:ui-monospace,monospace}
img.qr{width:var(--latchkey-qr-size,12rem);height:auto;background:#fff}
[part=secret] code{font-family:ui-monospace,monospace;word-spacing:.3em}
@media (forced-colors:active){button,a[part~=button],input,.last-used{border:1px solid ButtonText}:is(button,input,a,[tabindex]):focus-visible{outline-color:Highlight}button:disabled{border-color:GrayText}}
@media (prefers-reduced-motion:reduce){*,::before,::after{animation:none!important;transition:none!important;scroll-behavior:auto!important}}
`

/** The console's entry (console/index.html): registers the app element, which does the rest. */
import './console-app/console-app.ts';

// The page's own 8 px body margin put a scrollbar beside the full-height layout. A constructed
// sheet, because the console's CSP allows no inline styles.
const page = new CSSStyleSheet();
page.replaceSync('body { margin: 0; }');
document.adoptedStyleSheets = [...document.adoptedStyleSheets, page];

/** The console's entry (console/index.html): registers the app element, which does the rest. */
import './console-app/console-app.ts';

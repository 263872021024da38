/**
 * The one Plotly of the app: the core (which carries scatter) with bar, waterfall and pie only.
 * Loaded with the chart chunk, never with the first page.
 */

import bar from "plotly.js/lib/bar";
import Plotly from "plotly.js/lib/core";
import pie from "plotly.js/lib/pie";
import waterfall from "plotly.js/lib/waterfall";

Plotly.register([bar, waterfall, pie]);

export { Plotly };

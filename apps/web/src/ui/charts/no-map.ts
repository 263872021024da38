// Plotly's registry requires the map CSS for map traces, which this app never registers: nothing.
export {};

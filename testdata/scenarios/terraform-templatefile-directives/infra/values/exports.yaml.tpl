%{ if enabled }
schedule: "*/5 * * * *"
%{ else }
schedule: "0 3 * * *"
%{ endif }

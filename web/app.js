const root = document.documentElement;
function onPython() {
  const r = JSON.parse(window.chkobbaPy("ping", "{}"));
  document.getElementById("loading-text").textContent = "Python " + r.ok.python;
  root.classList.add("ready");
}
if (window.chkobbaPy) onPython(); else window.addEventListener("chkobba:python-ready", onPython, { once: true });

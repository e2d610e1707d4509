// sheetgen serve: the live parts over plain forms that work without this script.
"use strict";
(function () {
  const $ = (selector, root) => (root || document).querySelector(selector);
  const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));
  const status = $("#status");
  const form = $("#record-form");
  let touched = false;

  let awakeNote = "";
  function say(key) {
    if (!status) return;
    if (key === "awake") awakeNote = status.dataset.awake || "";
    else status.dataset.now = status.dataset[key] || "";
    status.textContent = [status.dataset.now || "", awakeNote].join(" ").trim();
  }

  // Every open page hears of each change; a form already being filled keeps the state
  // it was started against, so a game another page saved first is refused, not doubled.
  if (window.EventSource && $("#live")) {
    const events = new EventSource("/events");
    let heard = 0;
    events.addEventListener("series", (event) => {
      const data = JSON.parse(event.data);
      $("#live").innerHTML = data.html;
      const done = $(".done");
      if (done && heard++ > 0) done.remove();  // said of an older change (the server sends none for no change)
      if (!touched) $$("input[name=expected_games]").forEach((input) => { input.value = data.expected_games; });
      say("live");
    });
    events.onerror = () => say("lost");
  }

  function winners() {
    const chosen = form && $("input[name=winner]:checked", form);
    return chosen ? chosen.dataset.members.split("\n") : [];
  }

  function game() {
    const left = {};
    const out = winners();
    $$(".count", form).forEach((row) => {
      const input = $("input", row);
      const name = row.dataset.player;
      const won = out.includes(name);
      // A winner's own pile is empty: its field is cleared and left out, not sent.
      row.classList.toggle("is-winner", won);
      input.disabled = won;
      $$("button", row).forEach((button) => { button.disabled = won; });
      if (won) input.value = "";
      else if (input.value !== "") left[name] = Number(input.value);
    });
    const chosen = $("input[name=winner]:checked", form);
    return { winner: chosen ? chosen.value : "", left: left };
  }

  let timer = null;
  function preview() {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const shown = $("#preview");
      const asked = game();
      const expected = $$(".count", form).filter((row) => !winners().includes(row.dataset.player));
      if (!asked.winner || Object.keys(asked.left).length < expected.length) { shown.textContent = ""; return; }
      const replacing = form.getAttribute("action").match(/\/games\/(\d+)$/);
      if (replacing) asked.replace = Number(replacing[1]);
      const answer = await fetch("/api/preview", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": $("input[name=csrf]", form).value },
        body: JSON.stringify(asked),
      });
      const data = await answer.json();
      const label = $("input[name=winner]:checked", form).parentElement.textContent.trim();
      shown.classList.toggle("is-error", !answer.ok);
      shown.textContent = answer.ok
        ? (data.points ? shown.dataset.points : shown.dataset.wentOut).replace("{winner}", label).replace("{points}", data.points)
        : data.problem || data.error;
    }, 150);
  }

  if (form) {
    $$(".step", form).forEach((button) => {
      button.hidden = false;
      button.addEventListener("click", () => {
        const input = document.getElementById(button.dataset.for);
        const next = Math.min(Number(input.max), Math.max(0, Number(input.value || 0) + Number(button.dataset.step)));
        input.value = String(next);
        touched = true;
        preview();
      });
    });
    form.addEventListener("input", () => { touched = true; preview(); });
    form.addEventListener("change", () => { touched = true; preview(); });
    const check = $("button.check", form);
    const save = $("button.save", form);
    if (check && save) { check.hidden = true; save.hidden = false; }
    preview();
  }

  // The booklet's preview follows its form without a reload.
  const booklet = $("#booklet-form");
  if (booklet) {
    let wait = null;
    booklet.addEventListener("change", () => {
      clearTimeout(wait);
      wait = setTimeout(() => {
        const query = new URLSearchParams(new FormData(booklet)).toString();
        $("#booklet-preview").src = "/booklet/preview?" + query;
        $("#booklet-pdf").href = "/download/rules.pdf?" + query;
        $("#booklet-folded").href = "/download/rules.pdf?" + query + "&layout=booklet";
        const print = $("#booklet-print");
        $$("input.choice-copy", print).forEach((input) => input.remove());
        new FormData(booklet).forEach((value, name) => {
          const copy = document.createElement("input");
          Object.assign(copy, { type: "hidden", name: name, value: value, className: "choice-copy" });
          print.prepend(copy);
        });
      }, 200);
    });
  }

  // The screen stays on while the page is open, where the browser can do it.
  async function awake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    try { await navigator.wakeLock.request("screen"); say("awake"); } catch (error) { /* refused: fine */ }
  }
  document.addEventListener("visibilitychange", awake);
  awake();
})();

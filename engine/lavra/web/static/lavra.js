/* lavra: masks, live completeness report, add/remove rows. The pages work without it. */
(function () {
  "use strict";

  function digits(v) { return v.replace(/\D/g, ""); }
  function shape(value, pattern) {
    /* pattern: 9 = character from value, other characters are literal separators */
    var out = "", i = 0;
    for (var p = 0; p < pattern.length && i < value.length; p++) {
      if (pattern[p] === "9") { out += value[i++]; } else { out += pattern[p]; }
    }
    return out;
  }
  var masks = {
    cpf: function (v) { return shape(digits(v).slice(0, 11), "999.999.999-99"); },
    cnpj: function (v) {
      var raw = v.toUpperCase().replace(/[^0-9A-Z]/g, "").slice(0, 14);
      return shape(raw, "99.999.999/9999-99");
    },
    cep: function (v) { return shape(digits(v).slice(0, 8), "99999-999"); },
    data: function (v) { return shape(digits(v).slice(0, 8), "99/99/9999"); },
    placa: function (v) { return v.toUpperCase().replace(/[^0-9A-Z]/g, "").slice(0, 7); }
  };
  function applyMask(input) {
    var mask = masks[input.getAttribute("data-mascara")];
    if (!mask) { return; }
    var masked = mask(input.value);
    if (masked !== input.value) { input.value = masked; }
  }

  function debounce(fn, ms) {
    var timer = null;
    return function () {
      if (timer) { clearTimeout(timer); }
      timer = setTimeout(fn, ms);
    };
  }

  function setup(form) {
    var target = document.getElementById("relatorio");
    var url = form.getAttribute("data-relatorio");
    var pending = null;
    function refresh() {
      if (!target || !url || !window.fetch) { return; }
      if (pending) { pending.abort(); }
      pending = new AbortController();
      fetch(url, {
        method: "POST", body: new FormData(form), credentials: "same-origin",
        headers: { "Accept": "application/json" }, signal: pending.signal
      }).then(function (r) {
        return r.ok ? r.json() : null;
      }).then(function (json) {
        if (json && typeof json.html === "string") {
          target.innerHTML = json.html; /* server-rendered, escaped by the template engine */
          form.setAttribute("data-completo", json.complete ? "sim" : "nao");
          form.setAttribute("data-pendencias", String(json.pending));
        }
      }).catch(function () { /* offline or aborted: the server-side report still works */ });
    }
    var later = debounce(refresh, 350);
    form.addEventListener("input", function (event) {
      if (event.target && event.target.hasAttribute && event.target.hasAttribute("data-mascara")) {
        applyMask(event.target);
      }
      later();
    });
    form.addEventListener("change", later);
    form.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("button") : null;
      if (!button) { return; }
      if (button.hasAttribute("data-adicionar")) {
        event.preventDefault();
        addRow(form, button.getAttribute("data-adicionar"));
        later();
      } else if (button.hasAttribute("data-remover")) {
        event.preventDefault();
        var row = button.closest("fieldset.linha");
        if (row) { row.parentNode.removeChild(row); }
        later();
      }
    });
    Array.prototype.forEach.call(form.querySelectorAll("[data-mascara]"), applyMask);
  }

  function addRow(form, name) {
    var section = null, template = null;
    Array.prototype.forEach.call(form.querySelectorAll("[data-linhas]"), function (s) {
      if (s.getAttribute("data-linhas") === name) { section = s; }
    });
    if (!section) { return; }
    Array.prototype.forEach.call(section.querySelectorAll("template[data-modelo]"), function (t) {
      if (t.getAttribute("data-modelo") === name) { template = t; }
    });
    if (!template) { return; }
    var list = section.querySelector(".lista-linhas");
    var rows = list.querySelectorAll(":scope > fieldset.linha");
    var max = parseInt(section.getAttribute("data-maximo") || "500", 10);
    if (rows.length >= max) { return; }
    var next = 0;
    Array.prototype.forEach.call(rows, function (row) {
      var parts = (row.getAttribute("data-linha") || "").split("/");
      var index = parseInt(parts[parts.length - 1], 10);
      if (!isNaN(index) && index >= next) { next = index + 1; }
    });
    var marker = section.getAttribute("data-marcador");
    var html = template.innerHTML.split(marker).join(String(next));
    var holder = document.createElement("div");
    holder.innerHTML = html;
    while (holder.firstChild) { list.appendChild(holder.firstChild); }
    var first = list.lastElementChild && list.lastElementChild.querySelector("input, select, textarea");
    if (first) { first.focus(); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("formulario");
    if (form) { setup(form); }
  });
})();

// An extension library written the way users of the reference package write one: object types
// declared with the reference's C++ headers and registered through reflection
// (refl::ObjectDef: fields, methods, static methods, explicit and auto-generated __ffi_init__),
// built against the reference headers and loaded by our Python package
// (tests/compat/test_ref_reflection_in_our_python.py). Shaped like a grammar engine's bindings:
// `Grammar.from_ebnf(text)`, `grammar.to_string()`, `TokenizerInfo(vocab)`.
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdint>
#include <string>

namespace demo {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

// A grammar: made only by the static factory (no __ffi_init__).
class GrammarObj : public ffi::Object {
 public:
  ffi::String root;
  int64_t num_rules = 0;

  ffi::String ToString() const { return ffi::String("root ::= " + std::string(root)); }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("demo.Grammar", GrammarObj, ffi::Object);
};

class Grammar : public ffi::ObjectRef {
 public:
  explicit Grammar(ffi::ObjectPtr<GrammarObj> n) : ffi::ObjectRef(std::move(n)) {}
  static Grammar FromEBNF(const ffi::String& text, int64_t num_rules) {
    if (text.size() == 0) TVM_FFI_THROW(ValueError) << "from_ebnf: empty grammar text";
    auto n = ffi::make_object<GrammarObj>();
    n->root = text;
    n->num_rules = num_rules;
    return Grammar(n);
  }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Grammar, ffi::ObjectRef, GrammarObj);
};

// Constructed from Python with its explicit init: TokenizerInfo(vocab, add_prefix_space).
class TokenizerInfoObj : public ffi::Object {
 public:
  ffi::Array<ffi::String> vocab;
  int64_t vocab_size;
  bool add_prefix_space;

  TokenizerInfoObj(ffi::Array<ffi::String> vocab, bool add_prefix_space)
      : vocab(vocab), vocab_size(static_cast<int64_t>(vocab.size())),
        add_prefix_space(add_prefix_space) {}

  int64_t TokenId(const ffi::String& token) const {
    for (size_t i = 0; i < vocab.size(); ++i) {
      if (vocab[i] == token) return static_cast<int64_t>(i);
    }
    TVM_FFI_THROW(KeyError) << "unknown token " << token;
  }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("demo.TokenizerInfo", TokenizerInfoObj, ffi::Object);
};

// Auto-generated keyword init from field defaults; a child type adds a field.
class ConfigObj : public ffi::Object {
 public:
  int64_t depth = 0;
  double temperature = 0.0;
  ffi::String name;
  ffi::Optional<Grammar> grammar;

  static constexpr bool _type_mutable = true;
  static constexpr uint32_t _type_child_slots = 1;
  TVM_FFI_DECLARE_OBJECT_INFO("demo.Config", ConfigObj, ffi::Object);
};

class SpecialConfigObj : public ConfigObj {
 public:
  int64_t level = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("demo.SpecialConfig", SpecialConfigObj, ConfigObj);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<GrammarObj>(refl::init(false))
      .def_ro("root", &GrammarObj::root, "root rule text")
      .def_ro("num_rules", &GrammarObj::num_rules)
      .def("to_string", &GrammarObj::ToString, "the grammar as EBNF")
      .def_static("from_ebnf", &Grammar::FromEBNF, "parse a grammar");
  refl::ObjectDef<TokenizerInfoObj>()
      .def(refl::init<ffi::Array<ffi::String>, bool>())
      .def_ro("vocab", &TokenizerInfoObj::vocab)
      .def_ro("vocab_size", &TokenizerInfoObj::vocab_size, "number of tokens")
      .def_rw("add_prefix_space", &TokenizerInfoObj::add_prefix_space)
      .def("token_id", &TokenizerInfoObj::TokenId);
  refl::ObjectDef<ConfigObj>()
      .def_rw("depth", &ConfigObj::depth, refl::default_value(3))
      .def_rw("temperature", &ConfigObj::temperature, refl::default_value(1.0))
      .def_rw("name", &ConfigObj::name)
      .def_rw("grammar", &ConfigObj::grammar, refl::default_value(ffi::Optional<Grammar>()));
  refl::ObjectDef<SpecialConfigObj>().def_rw("level", &SpecialConfigObj::level,
                                             refl::kw_only(true), refl::default_value(7));
}

}  // namespace demo

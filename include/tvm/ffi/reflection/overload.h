/*
 * tvm/ffi/reflection/overload.h -- ObjectDef whose methods, static methods and constructors may
 * be registered several times under one name with different signatures:
 *
 *   refl::OverloadObjectDef<VecObj>()
 *       .def(refl::init<int64_t>())                 // Vec(3)
 *       .def(refl::init<int64_t, int64_t>())        // Vec(3, 4)
 *       .def_static("make", [](int64_t n) { ... })
 *       .def_static("make", [](String s) { ... });  // Vec.make("x") picks this one
 *
 * One Function per name dispatches a call to the first signature (in registration order) whose
 * arity matches and whose arguments all convert; when none does, a TypeError lists why each
 * signature was rejected. Each signature is also published as its own method entry (same
 * Function, its own type schema) so stub generators see every overload.
 */
#ifndef TVM_FFI_REFLECTION_OVERLOAD_H_
#define TVM_FFI_REFLECTION_OVERLOAD_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/function_detail.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace reflection {
namespace detail {

/*! \brief One signature of an overloaded function. */
class OverloadCandidate {
 public:
  virtual ~OverloadCandidate() = default;
  /*! \brief Converts every argument and calls; false (nothing called) when one does not convert. */
  virtual bool TryCall(const AnyView* args, int32_t num_args, Any* rv) = 0;
  /*! \brief Calls with the plain typed-function argument checks (the only signature). */
  virtual void CallChecked(const std::string* name, const AnyView* args, int32_t num_args,
                           Any* rv) = 0;
  /*! \brief Why this signature does not take `args`. */
  virtual std::string Mismatch(const std::string& name, const AnyView* args,
                               int32_t num_args) const = 0;
  virtual std::string TypeSchema() const = 0;
};

template <typename Callable>
class TypedOverloadCandidate final : public OverloadCandidate {
  using Info = ffi::detail::FunctionInfo<Callable>;
  using Params = typename Info::ArgType;
  using R = typename Info::RetType;
  static constexpr size_t kNumArgs = Info::num_args;
  template <size_t I>
  using Param = std::remove_cv_t<std::remove_reference_t<std::tuple_element_t<I, Params>>>;

 public:
  explicit TypedOverloadCandidate(Callable f) : f_(std::move(f)) {}

  bool TryCall(const AnyView* args, int32_t num_args, Any* rv) final {
    if (num_args != static_cast<int32_t>(kNumArgs)) return false;
    return TryCallAux(std::make_index_sequence<kNumArgs>{}, args, rv);
  }

  void CallChecked(const std::string* name, const AnyView* args, int32_t num_args,
                   Any* rv) final {
    ffi::detail::unpack_call<R>(std::make_index_sequence<kNumArgs>{}, name, f_, args, num_args, rv);
  }

  std::string Mismatch(const std::string& name, const AnyView* args,
                       int32_t num_args) const final {
    std::ostringstream os;
    if (num_args != static_cast<int32_t>(kNumArgs)) {
      os << "Mismatched number of arguments when calling: `" << name << " " << Info::Sig()
         << "`. Expected " << kNumArgs << " arguments";
    } else {
      FirstMismatch(std::make_index_sequence<kNumArgs>{}, os, name, args);
    }
    return os.str();
  }

  std::string TypeSchema() const final { return Info::TypeSchema(); }

 private:
  template <size_t I>
  static std::optional<Param<I>> Convert(const AnyView* args) {
    if constexpr (std::is_same_v<Param<I>, AnyView>) {
      return args[I];
    } else if constexpr (std::is_same_v<Param<I>, Any>) {
      return Any(args[I]);
    } else {
      TVMFFIAny raw = args[I].CopyToTVMFFIAny();
      return ffi::detail::TryCastFromAny<Param<I>>(&raw);
    }
  }

  template <size_t... I>
  bool TryCallAux(std::index_sequence<I...>, [[maybe_unused]] const AnyView* args,
                  [[maybe_unused]] Any* rv) {
    std::tuple<std::optional<Param<I>>...> converted;
    bool ok = ((std::get<I>(converted) = Convert<I>(args), std::get<I>(converted).has_value()) &&
               ...);
    if (!ok) return false;
    if constexpr (std::is_void_v<R>) {
      f_(static_cast<std::tuple_element_t<I, Params>>(*std::move(std::get<I>(converted)))...);
    } else {
      *rv = f_(static_cast<std::tuple_element_t<I, Params>>(*std::move(std::get<I>(converted)))...);
    }
    return true;
  }

  template <size_t... I>
  static void FirstMismatch(std::index_sequence<I...>, std::ostringstream& os,
                            const std::string& name, [[maybe_unused]] const AnyView* args) {
    bool reported = false;
    auto check = [&](auto index) {
      constexpr size_t kI = decltype(index)::value;
      if (reported || Convert<kI>(args).has_value()) return;
      reported = true;
      TVMFFIAny raw = args[kI].CopyToTVMFFIAny();
      os << "Mismatched type on argument #" << kI << " when calling: `" << name << " "
         << Info::Sig() << "`. Expected `" << ffi::detail::Type2Str<Param<kI>>::v() << "` but got `"
         << TypeTraits<Param<kI>>::GetMismatchTypeInfo(&raw) << '`';
    };
    (check(std::integral_constant<size_t, I>{}), ...);
    (void)check;
  }

  Callable f_;
};

/*! \brief The packed body of an overloaded Function: its name and signatures. */
class OverloadDispatcher {
 public:
  explicit OverloadDispatcher(std::string name) : name_(std::move(name)) {}

  void Add(std::unique_ptr<OverloadCandidate> candidate) {
    candidates_.push_back(std::move(candidate));
  }

  void operator()(PackedArgs args, Any* rv) const {
    if (candidates_.size() == 1) {  // errors exactly as for a plain typed function
      candidates_[0]->CallChecked(&name_, args.data(), args.size(), rv);
      return;
    }
    for (const auto& candidate : candidates_) {
      if (candidate->TryCall(args.data(), args.size(), rv)) return;
    }
    std::ostringstream os;
    os << "No matching overload found when calling: `" << name_ << "` with " << args.size()
       << " arguments:";
    for (size_t i = 0; i < candidates_.size(); ++i) {
      os << "\nOverload #" << i << ": " << candidates_[i]->Mismatch(name_, args.data(), args.size());
    }
    TVM_FFI_THROW(TypeError) << os.str();
  }

 private:
  std::string name_;
  std::vector<std::unique_ptr<OverloadCandidate>> candidates_;
};

template <typename Callable>
std::unique_ptr<OverloadCandidate> MakeOverloadCandidate(Callable f) {
  return std::make_unique<TypedOverloadCandidate<Callable>>(std::move(f));
}

}  // namespace detail

/*! \brief ObjectDef whose def / def_static / def(init<...>) may repeat a name (overloads). */
template <typename Class>
class OverloadObjectDef : private ObjectDef<Class> {
 public:
  using Super = ObjectDef<Class>;

  template <typename... Extra>
  explicit OverloadObjectDef(Extra&&... extra) : Super(std::forward<Extra>(extra)...) {}

  /*! \brief Read-only field (fields cannot be overloaded). */
  template <typename T, typename Base, typename... Extra>
  OverloadObjectDef& def_ro(const char* name, T Base::*field, Extra&&... extra) {
    Super::def_ro(name, field, std::forward<Extra>(extra)...);
    return *this;
  }
  /*! \brief Read-write field. */
  template <typename T, typename Base, typename... Extra>
  OverloadObjectDef& def_rw(const char* name, T Base::*field, Extra&&... extra) {
    Super::def_rw(name, field, std::forward<Extra>(extra)...);
    return *this;
  }
  /*! \brief Instance method; repeat the name to add a signature. */
  template <typename Func, typename... Extra>
  OverloadObjectDef& def(const char* name, Func&& func, Extra&&... extra) {
    AddOverload(name, false, detail::WrapMethod(std::forward<Func>(func)), extra...);
    return *this;
  }
  /*! \brief Static method; repeat the name to add a signature. */
  template <typename Func, typename... Extra>
  OverloadObjectDef& def_static(const char* name, Func&& func, Extra&&... extra) {
    AddOverload(name, true, detail::WrapMethod(std::forward<Func>(func)), extra...);
    return *this;
  }
  /*! \brief Constructor from Args...; several init<...> make an overloaded `__ffi_init__`. */
  template <typename... Args, typename... Extra>
  OverloadObjectDef& def(init<Args...>, Extra&&... extra) {
    static_assert(std::is_constructible_v<Class, Args...>,
                  "refl::init<Args...>: the object type has no constructor taking these arguments");
    constexpr const char* kInitName = "__ffi_init__";
    bool first = methods_.find(kInitName) == methods_.end();
    Function ctor = AddOverload(
        kInitName, true,
        [](Args... args) { return ObjectRef(make_object<Class>(std::forward<Args>(args)...)); },
        extra...);
    if (first) Super::RegisterAttr(kInitName, ctor);  // later signatures join the same Function
    this->has_init_ = true;
    return *this;
  }

 private:
  struct Overloaded {
    std::shared_ptr<detail::OverloadDispatcher> dispatcher;
    Function function;
  };

  /*! \brief Adds a signature; extras give the doc string and refl::Metadata entries. */
  template <typename Callable, typename... Extra>
  Function AddOverload(const char* name, bool is_static, Callable callable, const Extra&... extra) {
    auto candidate = detail::MakeOverloadCandidate(std::move(callable));
    std::string doc = detail::DocOf(extra...);
    std::string metadata =
        detail::WithUserMetadata(detail::SchemaMetadata(candidate->TypeSchema()), extra...);
    auto it = methods_.find(name);
    if (it == methods_.end()) {
      auto dispatcher = std::make_shared<detail::OverloadDispatcher>(Super::MethodName(name));
      Function function = Function::FromPacked(
          [dispatcher](PackedArgs args, Any* rv) { (*dispatcher)(args, rv); });
      it = methods_.emplace(name, Overloaded{dispatcher, function}).first;
    }
    it->second.dispatcher->Add(std::move(candidate));
    Super::RegisterMethod(name, is_static, it->second.function, doc, metadata);
    return it->second.function;
  }

  std::unordered_map<std::string, Overloaded> methods_;
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_OVERLOAD_H_

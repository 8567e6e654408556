/*
 * tvm/ffi/reflection/registry.h -- registering global functions and reflected object types
 * with the runtime, usually from a TVM_FFI_STATIC_INIT_BLOCK:
 *
 *   namespace refl = tvm::ffi::reflection;
 *   TVM_FFI_STATIC_INIT_BLOCK() {
 *     refl::GlobalDef().def("my.add", [](int a, int b) { return a + b; });
 *     refl::ObjectDef<PointObj>()
 *         .def(refl::init<int64_t, int64_t>())
 *         .def_ro("x", &PointObj::x)
 *         .def_rw("y", &PointObj::y, "the y coordinate")
 *         .def("norm1", &PointObj::Norm1);
 *   }
 *
 * Everything goes through the C registration API (TVMFFITypeRegisterField/Method/Metadata/Attr,
 * TVMFFIFunctionSetGlobalFromMethodInfo).
 */
#ifndef TVM_FFI_REFLECTION_REGISTRY_H_
#define TVM_FFI_REFLECTION_REGISTRY_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/creator.h>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace reflection {

/*! \brief Constructor signature for ObjectDef::def: registers `__ffi_init__(Args...)`. */
template <typename... Args>
struct init {
  constexpr init() noexcept = default;
};

/*! \brief `init<>`; `init(false)` also says "no generated __ffi_init__": given to ObjectDef it
 * suppresses the auto-generated constructor, given to a field it leaves the field out of it. */
template <>
struct init<> {
  constexpr init() noexcept = default;
  explicit init(bool include) noexcept : include(include) {}
  int64_t FieldFlags() const { return include ? 0 : kTVMFFIFieldFlagBitMaskInitOff; }
  bool include = true;
};
init(bool) -> init<>;

/*!
 * \brief The base of field and method extras. A user extra derives from it and defines
 * `void Apply(FieldInfoBuilder* info) const` (or taking a TVMFFIFieldInfo*) to adjust what is
 * registered for a field: its flags, its doc, or metadata entries added to `info->metadata_`.
 */
struct InfoTrait {};

/*! \brief What a field is registered with, as user extras see it: the C record plus metadata
 * entries appended to the field's metadata JSON (ints, bools or strings). */
struct FieldInfoBuilder : public TVMFFIFieldInfo {
  std::vector<std::pair<String, Any>> metadata_;
};

/*! \brief Field/method extras: default value of a field. */
struct DefaultValue : public InfoTrait {
  explicit DefaultValue(Any value) : value(std::move(value)) {}
  Any value;
};
inline DefaultValue default_value(Any value) { return DefaultValue(std::move(value)); }

/*! \brief Field extra: the default comes from calling `factory()` each time (a fresh value
 * per object, for mutable defaults such as containers). `default_factory` is the same thing
 * spelled as in Python. */
struct DefaultFactory : public InfoTrait {
  explicit DefaultFactory(Function factory) : factory(std::move(factory)) {}
  Function factory;
};
struct default_factory : public DefaultFactory {
  using DefaultFactory::DefaultFactory;
};

/*!
 * \brief Field, method and function extra: entries added to the registered metadata JSON after
 * its type_schema, e.g. `.def_ro("width", &T::width, refl::Metadata{{"unit", "px"}})`. Values
 * are ints, bools or strings.
 */
class Metadata : public InfoTrait {
 public:
  Metadata(std::initializer_list<std::pair<String, Any>> entries) : entries_(entries) {}
  const std::vector<std::pair<String, Any>>& entries() const noexcept { return entries_; }

 private:
  std::vector<std::pair<String, Any>> entries_;
};

/*! \brief Field extras that set TVMFFIFieldFlagBitMask bits (names and meaning as in the
 * reference's reflection API): keyword-only in the generated init, left out of repr,
 * comparison or hashing. */
struct kw_only : public InfoTrait {
  explicit kw_only(bool on) noexcept : on(on) {}
  int64_t FieldFlags() const { return on ? kTVMFFIFieldFlagBitMaskKwOnly : 0; }
  bool on;
};
struct repr : public InfoTrait {
  explicit repr(bool show) noexcept : show(show) {}
  int64_t FieldFlags() const { return show ? 0 : kTVMFFIFieldFlagBitMaskReprOff; }
  bool show;
};
struct compare : public InfoTrait {
  explicit compare(bool include) noexcept : include(include) {}
  int64_t FieldFlags() const { return include ? 0 : kTVMFFIFieldFlagBitMaskCompareOff; }
  bool include;
};
struct hash : public InfoTrait {
  explicit hash(bool include) noexcept : include(include) {}
  int64_t FieldFlags() const { return include ? 0 : kTVMFFIFieldFlagBitMaskHashOff; }
  bool include;
};
/*! \brief Field extra: raw flag bits, e.g. the structural-equality roles of a field. */
struct AttachFieldFlag : public InfoTrait {
  explicit AttachFieldFlag(int64_t flag) noexcept : flag(flag) {}
  static AttachFieldFlag SEqHashDefPattern() {
    return AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashDefPattern);
  }
  static AttachFieldFlag SEqHashDefSimple() {
    return AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashDefSimple);
  }
  static AttachFieldFlag SEqHashIgnore() { return AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashIgnore); }
  int64_t FieldFlags() const { return flag; }
  int64_t flag;
};

/*!
 * \brief Byte offset of the member `field_ptr` from the start of the object header
 * (TVMFFIObject) of a Class, the offset TVMFFIFieldInfo records; e.g. sizeof(TVMFFIObject) for
 * the first field of an object without other bases.
 */
template <typename Class, typename T>
inline int64_t GetFieldByteOffsetToObject(T Class::*field_ptr) {
  static_assert(std::is_base_of_v<Object, Class>, "the field must belong to an Object subclass");
  // Measured on static, suitably aligned storage that is never constructed: only addresses are
  // taken, no member is read.
  alignas(Class) static unsigned char storage[sizeof(Class)];
  Class* probe = reinterpret_cast<Class*>(storage);
  const char* header = reinterpret_cast<const char*>(static_cast<Object*>(probe));
  return reinterpret_cast<const char*>(&(probe->*field_ptr)) - header;
}

namespace detail {
using ::tvm::ffi::detail::ObjectUnsafe;

inline TVMFFIByteArray Bytes(const char* s) { return TVMFFIByteArray{s, ffi::detail::CStrLen(s)}; }
inline TVMFFIByteArray Bytes(const std::string& s) { return TVMFFIByteArray{s.data(), s.size()}; }

template <typename T, typename = void>
struct HasContainerType : std::false_type {};
template <typename T>
struct HasContainerType<T, std::void_t<typename T::ContainerType>> : std::true_type {};

/*! \brief True for field extras that contribute flag bits (they have `FieldFlags()`). */
template <typename T, typename = void>
struct HasFieldFlags : std::false_type {};
template <typename T>
struct HasFieldFlags<T, std::void_t<decltype(std::declval<const T&>().FieldFlags())>> : std::true_type {};

inline std::string SchemaMetadata(const std::string& schema) {
  return "{\"type_schema\":" + ffi::detail::EscapeStringJSON(schema) + "}";
}

/*! \brief Appends key/value entries (ints, bools or strings) to a JSON object's text. */
inline void AppendMetadataEntries(std::string* metadata,
                                  const std::vector<std::pair<String, Any>>& entries) {
  for (const auto& [key, value] : entries) {
    std::string text;
    if (value.type_index() == TypeIndex::kTVMFFIInt) {
      text = std::to_string(value.template cast<int64_t>());
    } else if (value.type_index() == TypeIndex::kTVMFFIBool) {
      text = value.template cast<bool>() ? "true" : "false";
    } else if (std::optional<String> str = value.template as<String>()) {
      text = ffi::detail::EscapeStringJSON(std::string(*str));
    } else {
      TVM_FFI_THROW(TypeError) << "Metadata can be only int, bool or string, but on key `" << key
                               << "`, the type is " << value.GetTypeKey();
    }
    metadata->pop_back();  // the closing brace
    if (metadata->size() > 1) *metadata += ',';
    *metadata += ffi::detail::EscapeStringJSON(std::string(key)) + ":" + text + "}";
  }
}

/*! \brief `metadata` (a JSON object) with the entries of every refl::Metadata among the extras
 * appended in order. */
template <typename... Extra>
std::string WithUserMetadata(std::string metadata, const Extra&... extra) {
  auto append = [&metadata](const auto& e) {
    if constexpr (std::is_same_v<std::decay_t<decltype(e)>, Metadata>) {
      AppendMetadataEntries(&metadata, e.entries());
    }
  };
  (append(extra), ...);
  (void)append;
  return metadata;
}

/*! \brief Whether E is a user extra with `Apply(FieldInfoBuilder*)` (see InfoTrait). */
template <typename E, typename = void>
struct AppliesToField : std::false_type {};
template <typename E>
struct AppliesToField<E, std::void_t<decltype(std::declval<const E&>().Apply(
                             std::declval<FieldInfoBuilder*>()))>> : std::true_type {};

/*! \brief Reads a field of type T into an owned Any. */
template <typename T>
int FieldGetter(void* field, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TypeTraits<T>::MoveToAny(*static_cast<T*>(field), result);
  TVM_FFI_SAFE_CALL_END();
}

/*! \brief Writes a field of type T from a view (converting like a function argument). */
template <typename T>
int FieldSetter(void* field, const TVMFFIAny* value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *static_cast<T*>(field) = ffi::detail::CastFromAny<T>(value);
  TVM_FFI_SAFE_CALL_END();
}

template <typename Class>
int ObjectCreatorDefault(TVMFFIObjectHandle* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *result = ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(make_object<Class>());
  TVM_FFI_SAFE_CALL_END();
}

/*! \brief The native creator of a type without a default constructor but with the
 * `explicit T(UnsafeInit)` one that TVM_FFI_DECLARE_OBJECT_INFO types use for reflection. */
template <typename Class>
int ObjectCreatorUnsafeInit(TVMFFIObjectHandle* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *result = ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(make_object<Class>(UnsafeInit{}));
  TVM_FFI_SAFE_CALL_END();
}

/*! \brief Whether ObjectDef<Class> registers a native creator (and so `__ffi_new__` and the
 * generated `__ffi_init__`): a default constructor, or else an UnsafeInit one. */
template <typename Class>
constexpr bool kHasNativeCreator =
    std::is_default_constructible_v<Class> || std::is_constructible_v<Class, UnsafeInit>;

/*! \brief The native creator ObjectDef<Class> registers (null when there is none). */
template <typename Class>
constexpr TVMFFIObjectCreator NativeCreatorOf() {
  if constexpr (std::is_default_constructible_v<Class>) {
    return &ObjectCreatorDefault<Class>;
  } else if constexpr (std::is_constructible_v<Class, UnsafeInit>) {
    return &ObjectCreatorUnsafeInit<Class>;
  } else {
    return nullptr;
  }
}

/*! \brief `__ffi_new__`: an empty object from the native creator. */
template <typename Class>
ObjectRef NewViaNativeCreator() {
  TVMFFIObjectHandle handle = nullptr;
  TVM_FFI_CHECK_SAFE_CALL(NativeCreatorOf<Class>()(&handle));
  return ObjectRef(ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(handle)));
}

/*! \brief The doc string among the extras (the first const char* / std::string), if any. */
template <typename... Extra>
std::string DocOf(const Extra&... extra) {
  std::string doc;
  auto pick = [&doc](const auto& e) {
    using E = std::decay_t<decltype(e)>;
    if constexpr (std::is_same_v<E, const char*> || std::is_same_v<E, char*> ||
                  std::is_same_v<E, std::string>) {
      if (doc.empty()) doc = e;
    } else if constexpr (std::is_array_v<std::remove_reference_t<decltype(e)>>) {
      if (doc.empty()) doc = e;
    }
  };
  (pick(extra), ...);
  (void)pick;
  return doc;
}

/*! \brief A member function as a callable taking `self` (reference or object pointer) first. */
template <typename R, typename C, typename... Args>
auto WrapMemberMethod(R (C::*f)(Args...) const) {
  if constexpr (std::is_base_of_v<ObjectRef, C>) {
    return [f](C self, Args... args) -> R { return (self.*f)(std::forward<Args>(args)...); };
  } else {
    return [f](const C* self, Args... args) -> R { return (self->*f)(std::forward<Args>(args)...); };
  }
}
template <typename R, typename C, typename... Args>
auto WrapMemberMethod(R (C::*f)(Args...)) {
  if constexpr (std::is_base_of_v<ObjectRef, C>) {
    return [f](C self, Args... args) -> R { return (self.*f)(std::forward<Args>(args)...); };
  } else {
    return [f](C* self, Args... args) -> R { return (self->*f)(std::forward<Args>(args)...); };
  }
}
/*! \brief A callable as is; a member function as a callable taking `self` first. */
template <typename Func>
auto WrapMethod(Func&& func) {
  if constexpr (std::is_member_function_pointer_v<std::decay_t<Func>>) {
    return WrapMemberMethod(func);
  } else {
    return std::decay_t<Func>(std::forward<Func>(func));
  }
}
/*! \brief Method metadata: the JSON type schema of the callable's signature. */
template <typename Callable>
std::string MethodMetadata(const Callable&) {
  return SchemaMetadata(ffi::detail::FunctionInfo<Callable>::TypeSchema());
}

/*! \brief Stores a type attribute: values as they are, callables as Functions named
 * `<type_key>.<name>`. */
template <typename Value>
void RegisterTypeAttr(int32_t type_index, const char* type_key, const char* name, Value&& value) {
  using V = std::decay_t<Value>;
  TVMFFIByteArray attr = Bytes(name);
  if constexpr (TypeTraits<V>::convert_enabled || std::is_same_v<V, Any> || std::is_same_v<V, AnyView>) {
    Any stored(std::forward<Value>(value));
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index, &attr,
                                                   ffi::detail::AnyUnsafe::TVMFFIAnyPtrFromAny(stored)));
  } else {
    Function func = Function::FromTyped(WrapMethod(std::forward<Value>(value)),
                                        std::string(type_key) + "." + name);
    RegisterTypeAttr(type_index, type_key, name, func);
  }
}

template <typename TSelf, typename Class>
constexpr void CheckConvertTarget() {
  if constexpr (HasContainerType<TSelf>::value) {
    static_assert(std::is_same_v<typename TSelf::ContainerType, Class>,
                  "def_convert<TSelf>: TSelf::ContainerType must be the registered object type");
  }
}

/*! \brief Wraps a callable as a Function; member functions take `self` first. */
template <typename Class, typename Func>
Function MakeMethod(std::string name, Func func) {
  return Function::FromTyped(WrapMethod(std::move(func)), std::move(name));
}

}  // namespace detail

/*! \brief Registers global functions: GlobalDef().def("name", f).def_packed("p", g); */
class GlobalDef {
 public:
  /*! \brief A typed function; extras may include a doc string. */
  template <typename Func, typename... Extra>
  GlobalDef& def(const char* name, Func&& func, Extra&&... extra) {
    if constexpr (std::is_member_function_pointer_v<std::decay_t<Func>>) {
      return def_method(name, func, std::forward<Extra>(extra)...);  // object first
    } else {
      using Info = ffi::detail::FunctionInfo<std::decay_t<Func>>;
      Register(name, Function::FromTyped(std::forward<Func>(func), name),
               detail::WithUserMetadata(detail::SchemaMetadata(Info::TypeSchema()), extra...),
               detail::DocOf(extra...));
      return *this;
    }
  }
  /*! \brief A packed function `void(PackedArgs, Any*)`. */
  template <typename Func, typename... Extra>
  GlobalDef& def_packed(const char* name, Func func, Extra&&... extra) {
    Register(name, Function::FromPacked(std::move(func)), detail::WithUserMetadata("{}", extra...),
             detail::DocOf(extra...));
    return *this;
  }
  /*! \brief A member function as a global taking the object first. */
  template <typename Func, typename... Extra>
  GlobalDef& def_method(const char* name, Func func, Extra&&... extra) {
    Register(name, detail::MakeMethod<void>(name, func), detail::WithUserMetadata("{}", extra...),
             detail::DocOf(extra...));
    return *this;
  }

 private:
  static void Register(const char* name, const Function& func, const std::string& metadata,
                       const std::string& doc) {
    TVMFFIMethodInfo info{};
    info.name = detail::Bytes(name);
    info.doc = detail::Bytes(doc);
    info.metadata = detail::Bytes(metadata);
    info.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
    TypeTraits<Function>::CopyToAnyView(func, &info.method);
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0));
  }
};

/*! \brief Registers a reflected object type: metadata now, then fields, methods, constructor. */
template <typename Class>
class ObjectDef {
 public:
  template <typename... Extra>
  explicit ObjectDef(Extra&&... extra) : type_index_(Class::_GetOrAllocRuntimeTypeIndex()) {
    static_assert(std::is_base_of_v<Object, Class>, "ObjectDef<T>: T must derive from Object");
    auto suppress = [this](const auto& e) {
      if constexpr (std::is_same_v<std::decay_t<decltype(e)>, init<>>) {
        if (!e.include) has_init_ = true;  // ObjectDef<T>(refl::init(false)): no constructor
      }
    };
    (suppress(extra), ...);
    (void)suppress;
    std::string doc = detail::DocOf(extra...);
    TVMFFITypeMetadata meta{};
    meta.doc = detail::Bytes(doc);
    meta.total_size = static_cast<int32_t>(sizeof(Class));
    meta.structural_eq_hash_kind = Class::_type_s_eq_hash_kind;
    meta.creator = detail::NativeCreatorOf<Class>();
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMetadata(type_index_, &meta));
    if constexpr (detail::kHasNativeCreator<Class>) {
      RegisterAttr("__ffi_new__", Function::FromTyped(&detail::NewViaNativeCreator<Class>,
                                                      std::string(Class::_type_key) + ".__ffi_new__"));
    }
    if constexpr (std::is_copy_constructible_v<Class>) {
      RegisterAttr("__ffi_shallow_copy__",
                   Function::FromTyped(
                       [](const Class* self) { return ObjectRef(make_object<Class>(*self)); },
                       std::string(Class::_type_key) + ".__ffi_shallow_copy__"));
    }
  }
  ObjectDef(const ObjectDef&) = delete;
  ObjectDef& operator=(const ObjectDef&) = delete;
  /*! \brief Once all fields are known: a type with a native creator (default or UnsafeInit
   * constructor) and no explicit constructor gets the runtime-generated `__ffi_init__` over its
   * fields (keyword arguments, defaults), as with the reference headers. */
  ~ObjectDef() noexcept(false) {
    if constexpr (detail::kHasNativeCreator<Class>) {
      if (!has_init_) {
        std::optional<Function> make_init = Function::GetGlobal("ffi._RegisterFFIInit");
        if (make_init.has_value()) (*make_init)(type_index_);
      }
    }
    // Finality is in no other metadata; binding generators read it from here.
    detail::RegisterTypeAttr(type_index_, Class::_type_key, type_attr::kTypeFinal.name,
                             static_cast<bool>(Class::_type_final));
  }

  /*! \brief Read-only field. */
  template <typename T, typename Base, typename... Extra>
  ObjectDef& def_ro(const char* name, T Base::*field, Extra&&... extra) {
    RegisterField(name, field, false, extra...);
    return *this;
  }
  /*! \brief Read-write field. */
  template <typename T, typename Base, typename... Extra>
  ObjectDef& def_rw(const char* name, T Base::*field, Extra&&... extra) {
    RegisterField(name, field, true, extra...);
    return *this;
  }
  /*! \brief Instance method (member function pointer or callable taking `self` first). */
  template <typename Func, typename... Extra>
  ObjectDef& def(const char* name, Func&& func, Extra&&... extra) {
    auto callable = detail::WrapMethod(std::forward<Func>(func));
    std::string metadata = detail::WithUserMetadata(detail::MethodMetadata(callable), extra...);
    RegisterMethod(name, false, Function::FromTyped(std::move(callable), MethodName(name)),
                   detail::DocOf(extra...), metadata);
    return *this;
  }
  /*! \brief Static method. */
  template <typename Func, typename... Extra>
  ObjectDef& def_static(const char* name, Func&& func, Extra&&... extra) {
    auto callable = detail::WrapMethod(std::forward<Func>(func));
    std::string metadata = detail::WithUserMetadata(detail::MethodMetadata(callable), extra...);
    RegisterMethod(name, true, Function::FromTyped(std::move(callable), MethodName(name)),
                   detail::DocOf(extra...), metadata);
    return *this;
  }
  /*! \brief A type attribute of this type: a value, or a callable wrapped as a Function. */
  template <typename Value>
  ObjectDef& def_type_attr(const char* name, Value&& value) {
    detail::RegisterTypeAttr(type_index_, Class::_type_key, name, std::forward<Value>(value));
    return *this;
  }
  /*! \brief The `__ffi_convert__` attribute: converts a value to TSelf (a reference to Class). */
  template <typename TSelf>
  ObjectDef& def_convert() {
    detail::CheckConvertTarget<TSelf, Class>();
    return def_type_attr(type_attr::kConvert.name, &detail::FFIConvertFromAnyViewToObjectRef<TSelf>);
  }
  /*! \brief Constructor from Args...: the `__ffi_init__` method and type attribute. */
  template <typename... Args, typename... Extra>
  ObjectDef& def(init<Args...>, Extra&&... extra) {
    static_assert(std::is_constructible_v<Class, Args...>,
                  "refl::init<Args...>: the object type has no constructor taking these arguments");
    auto make = [](Args... args) { return ObjectRef(make_object<Class>(std::forward<Args>(args)...)); };
    Function ctor = Function::FromTyped(make, MethodName("__ffi_init__"));
    RegisterMethod("__ffi_init__", true, ctor, detail::DocOf(extra...),
                   detail::WithUserMetadata(detail::MethodMetadata(make), extra...));
    RegisterAttr("__ffi_init__", ctor);
    has_init_ = true;
    return *this;
  }

 protected:  // shared with OverloadObjectDef (overload.h)
  std::string MethodName(const char* name) const {
    return std::string(Class::_type_key) + "." + name;
  }
  void RegisterAttr(const char* name, const Function& func) {
    TVMFFIByteArray attr = detail::Bytes(name);
    TVMFFIAny value;
    TypeTraits<Function>::CopyToAnyView(func, &value);
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index_, &attr, &value));
  }
  void RegisterMethod(const char* name, bool is_static, const Function& func,
                      const std::string& doc, const std::string& metadata = "{}") {
    TVMFFIMethodInfo info{};
    info.name = detail::Bytes(name);
    info.doc = detail::Bytes(doc);
    info.metadata = detail::Bytes(metadata);
    info.flags = is_static ? kTVMFFIFieldFlagBitMaskIsStaticMethod : 0;
    TypeTraits<Function>::CopyToAnyView(func, &info.method);
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMethod(type_index_, &info));
  }
  template <typename T, typename Base, typename... Extra>
  void RegisterField(const char* name, T Base::*field, bool writable, const Extra&... extra) {
    static_assert(std::is_base_of_v<Base, Class>, "the field belongs to an unrelated class");
    static_assert(TypeTraits<T>::convert_enabled,
                  "reflected field type cannot be converted to tvm::ffi::Any");
    std::string doc = detail::DocOf(extra...);
    std::string metadata =
        detail::WithUserMetadata(detail::SchemaMetadata(TypeTraits<T>::TypeSchema()), extra...);
    FieldInfoBuilder info{};
    info.name = detail::Bytes(name);
    info.doc = detail::Bytes(doc);
    info.flags = writable ? kTVMFFIFieldFlagBitMaskWritable : 0;
    info.size = static_cast<int64_t>(sizeof(T));
    info.alignment = static_cast<int64_t>(alignof(T));
    info.offset = FieldOffset(field);
    info.getter = &detail::FieldGetter<T>;
    info.setter = reinterpret_cast<void*>(&detail::FieldSetter<T>);
    info.field_static_type_index = TypeToFieldStaticTypeIndex<T>::value;
    Any default_value;  // keeps the value (or factory) alive while the runtime copies it
    auto apply = [&](const auto& e) {
      using E = std::decay_t<decltype(e)>;
      if constexpr (std::is_same_v<E, DefaultValue>) {
        default_value = e.value;
        info.flags |= kTVMFFIFieldFlagBitMaskHasDefault;
      } else if constexpr (std::is_base_of_v<DefaultFactory, E>) {
        default_value = e.factory;
        info.flags |= kTVMFFIFieldFlagBitMaskHasDefault | kTVMFFIFieldFlagBitMaskDefaultFromFactory;
      } else if constexpr (detail::HasFieldFlags<E>::value) {
        info.flags |= e.FieldFlags();
      } else if constexpr (std::is_base_of_v<InfoTrait, E> && detail::AppliesToField<E>::value) {
        e.Apply(&info);  // a user extra
      }
    };
    (apply(extra), ...);
    (void)apply;
    detail::AppendMetadataEntries(&metadata, info.metadata_);
    info.metadata = detail::Bytes(metadata);
    info.default_value_or_factory = default_value.CopyToTVMFFIAny();
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterField(type_index_, &info));
  }
  /*! \brief Byte offset of a field (possibly of a base class) from Class's object header. */
  template <typename T, typename Base>
  static int64_t FieldOffset(T Base::*field) {
    return GetFieldByteOffsetToObject<Class, T>(field);
  }

  int32_t type_index_;
  bool has_init_ = false;  // an explicit constructor, or refl::init(false)
};

/*!
 * \brief Type attributes of an object type, without the rest of ObjectDef:
 *   refl::TypeAttrDef<PointObj>().def("__ffi_repr__", PrintPoint)
 *       .attr(type_attr::kTypeFinal, true)
 *       .native_fn_attr<&HashPoint>(type_attr::kAnyHash);
 */
template <typename Class, typename = std::enable_if_t<std::is_base_of_v<Object, Class>>>
class TypeAttrDef {
 public:
  template <typename... Extra>
  explicit TypeAttrDef(Extra&&...) : type_index_(Class::_GetOrAllocRuntimeTypeIndex()) {}

  /*! \brief A value, or a callable wrapped as a Function named `<type_key>.<name>`. */
  template <typename Value>
  TypeAttrDef& def(const char* name, Value&& value) {
    detail::RegisterTypeAttr(type_index_, Class::_type_key, name, std::forward<Value>(value));
    return *this;
  }
  /*! \brief The `__ffi_convert__` attribute converting a value to TSelf. */
  template <typename TSelf>
  TypeAttrDef& def_convert() {
    detail::CheckConvertTarget<TSelf, Class>();
    return def(type_attr::kConvert.name, &detail::FFIConvertFromAnyViewToObjectRef<TSelf>);
  }
  /*! \brief A typed attribute: `value` is first made into the key's value type. */
  template <typename T, typename Value>
  TypeAttrDef& attr(AttrKey<T> key, Value&& value) {
    T typed(std::forward<Value>(value));
    detail::RegisterTypeAttr(type_index_, Class::_type_key, key.name, std::move(typed));
    return *this;
  }
  /*! \brief An attribute by name, stored as given. */
  template <typename T>
  TypeAttrDef& attr(const char* name, T value) {
    detail::RegisterTypeAttr(type_index_, Class::_type_key, name, std::move(value));
    return *this;
  }
  /*! \brief A native hook (a NativeFunctionView key) bound to the function Fn. */
  template <auto Fn, typename T>
  TypeAttrDef& native_fn_attr(AttrKey<T> key) {
    return attr(key, T::template FromNative<Fn>());
  }

 private:
  int32_t type_index_;
};

/*! \brief Creates the attribute column `name` (empty) so lookups find it before any type sets it. */
inline void EnsureTypeAttrColumn(std::string_view name) {
  TVMFFIByteArray attr{name.data(), name.size()};
  TVMFFIAny none;
  ffi::detail::ClearAny(&none);
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(TypeIndex::kTVMFFINone, &attr, &none));
}
template <typename T>
inline void EnsureTypeAttrColumn(AttrKey<T> key) {
  EnsureTypeAttrColumn(std::string_view(key.name));
}

namespace detail {
/*! \brief Picks one C++ overload by its leading parameter types (see overload_cast). */
template <typename... Args>
struct OverloadCastImpl {
  template <typename R>
  constexpr auto operator()(R (*fn)(Args...)) const noexcept {
    return fn;
  }
  template <typename R, typename C>
  constexpr auto operator()(R (C::*fn)(Args...), std::false_type = {}) const noexcept {
    return fn;
  }
  template <typename R, typename C>
  constexpr auto operator()(R (C::*fn)(Args...) const, std::true_type) const noexcept {
    return fn;
  }
  template <typename R, typename... Rest>
  constexpr auto operator()(R (*fn)(Args..., Rest...)) const noexcept {
    return fn;
  }
  template <typename R, typename C, typename... Rest>
  constexpr auto operator()(R (C::*fn)(Args..., Rest...), std::false_type = {}) const noexcept {
    return fn;
  }
  template <typename R, typename C, typename... Rest>
  constexpr auto operator()(R (C::*fn)(Args..., Rest...) const, std::true_type) const noexcept {
    return fn;
  }
};
}  // namespace detail

/*! \brief Selects an overloaded C++ function by parameter types:
 * `overload_cast<int64_t>(&VecObj::Scale)`, `overload_cast<int64_t>(&VecObj::Get, const_)`. */
template <typename... Args>
inline constexpr detail::OverloadCastImpl<Args...> overload_cast = {};
/*! \brief Tag for overload_cast: pick the const member function. */
inline constexpr auto const_ = std::true_type{};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_REGISTRY_H_

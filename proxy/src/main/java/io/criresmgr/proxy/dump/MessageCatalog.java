package io.criresmgr.proxy.dump;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.criresmgr.api.runtime.v1.ImageServiceGrpc;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Request and reply message types of every CRI method our proto knows, by full method name. */
public final class MessageCatalog {
  private static final MessageCatalog CRI =
      new MessageCatalog(
          RuntimeServiceGrpc.getServiceDescriptor(), ImageServiceGrpc.getServiceDescriptor());

  private final Map<String, Types> types = new HashMap<>();

  private MessageCatalog(ServiceDescriptor... services) {
    for (ServiceDescriptor service : services) {
      for (MethodDescriptor<?, ?> method : service.getMethods()) {
        types.put(
            method.getFullMethodName(),
            new Types(
                prototype(method.getRequestMarshaller()),
                prototype(method.getResponseMarshaller())));
      }
    }
  }

  /** The catalog of the CRI runtime.v1 RuntimeService and ImageService. */
  public static MessageCatalog cri() {
    return CRI;
  }

  /** Decodes a request of {@code fullMethodName}; empty if the method is unknown or bytes bad. */
  public Optional<Message> request(String fullMethodName, byte[] bytes) {
    Types t = types.get(fullMethodName);
    return t == null ? Optional.empty() : parse(t.request(), bytes);
  }

  /** Decodes a reply of {@code fullMethodName}; empty if the method is unknown or bytes bad. */
  public Optional<Message> response(String fullMethodName, byte[] bytes) {
    Types t = types.get(fullMethodName);
    return t == null ? Optional.empty() : parse(t.response(), bytes);
  }

  /** Whether the method is part of our proto. */
  public boolean knows(String fullMethodName) {
    return types.containsKey(fullMethodName);
  }

  private static Optional<Message> parse(Message prototype, byte[] bytes) {
    try {
      return Optional.of(prototype.getParserForType().parseFrom(bytes));
    } catch (InvalidProtocolBufferException e) {
      return Optional.empty();
    }
  }

  private static Message prototype(MethodDescriptor.Marshaller<?> marshaller) {
    Object prototype = ((MethodDescriptor.PrototypeMarshaller<?>) marshaller).getMessagePrototype();
    return (Message) prototype;
  }

  private record Types(Message request, Message response) {}
}
